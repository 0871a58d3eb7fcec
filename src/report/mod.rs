//! Reports: text (mailing-list safe), Markdown and versioned JSON, redacted by default.

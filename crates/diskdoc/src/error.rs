//! The binary's one user-facing error: a line that names the problem and the way out, exit
//! status 2. Library errors (diskdoc-sys `MeasureError`, core `LoadError`) convert into it.

/// A user-facing error: one line, exit code 2.
#[derive(Debug)]
pub struct UserError(pub String);

impl std::fmt::Display for UserError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub type AppResult = Result<i32, UserError>;

impl std::error::Error for UserError {}

impl From<diskdoc_sys::bench::measure::MeasureError> for UserError {
    fn from(e: diskdoc_sys::bench::measure::MeasureError) -> Self {
        UserError(e.0)
    }
}

/// A secret the final check found in an output (nothing was written): exit status 2.
impl From<diskdoc_core::report::redact::Leak> for UserError {
    fn from(e: diskdoc_core::report::redact::Leak) -> Self {
        UserError(e.to_string())
    }
}

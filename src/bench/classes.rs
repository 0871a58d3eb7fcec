//! Device classes table

//! Decisions for the destructive raw-device write test, from bytes and tables the system
//! crate reads: the data signatures it refuses by, whether a sample of the device is
//! blank, and which loop devices share bytes with it.

pub mod blank;
pub mod loops;
pub mod signatures;

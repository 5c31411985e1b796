//! TEMPORARY until fifC's merge.
pub mod learn;
pub mod read;

//! The exit codes scripts rely on. They are a contract: never renumber.

/// Everything asked for was done: the requested tours were found, every board verified.
pub const SUCCESS: u8 = 0;
/// The run worked but the answer is "no": attempts ran out (the workbook is still written), or
/// a verified sheet is `partial` or `invalid`.
pub const FAILURE: u8 = 1;
/// Nothing useful could be done: a usage error, an impossible request, an unreadable file, an
/// unwritable output. Nothing was written.
pub const ERROR: u8 = 2;

//! What every command shares: messages, JSON schemas, completions and man pages, the README's
//! examples, the terminal, signals, and bounded writing.

mod completions_and_man;
mod json_schemas;
mod messages;
mod readme;
mod signals;
mod terminal;
mod writing;

//! Reading and writing workbooks: the readers beside xlsx, files from other people's libraries,
//! the writer read back, print setup, and what Excel's validator and LibreOffice make of it.

mod libreoffice_print;
mod print;
mod readers;
mod thirdparty;
mod valid_ooxml;
mod write;

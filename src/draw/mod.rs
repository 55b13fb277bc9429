//! Pictures of tours. (in progress)

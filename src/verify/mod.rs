//! Checking tours typed into workbooks. (in progress)

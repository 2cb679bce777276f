//! The `campus` command line as real processes (one test binary): `campus demo`, a short
//! `campus fuzz` and `campus bench --faults`, the command-line Student, how processes start and stop with their
//! launcher, and the example configuration files.

mod config_files;
mod demo;
mod faults;
mod fuzz;
mod lifecycle;
mod student_cli;

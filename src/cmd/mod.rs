//! One file per subcommand, each with the same shape:
//! `run(plan: &Plan, args: &XArgs) -> Result<ExitCode>`. The plan holds
//! everything expensive; the arguments say what to do with it.

pub mod analyze;
pub mod convert;
pub mod discover;
pub mod entities;
pub mod eval;
pub mod kwic;
pub mod merge;
pub mod segment;
pub mod split;
pub mod train;
pub mod views;

//! The binary's side of a run: the command-line arguments (`args`, clap
//! derive) and the `Plan` they become (`plan`): everything expensive built
//! once and lent to a subcommand.

mod args;
mod plan;

pub use args::*;
pub use plan::Plan;

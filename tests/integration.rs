//! Integration tests: the real binary on real files.

#[path = "integration/util.rs"]
mod util;

#[path = "integration/analyze.rs"]
mod analyze;
#[path = "integration/bad_input.rs"]
mod bad_input;
#[path = "integration/commands.rs"]
mod commands;
#[path = "integration/curation.rs"]
mod curation;
#[path = "integration/encodings.rs"]
mod encodings;
#[path = "integration/golden.rs"]
mod golden;
#[path = "integration/layout.rs"]
mod layout;
#[path = "integration/model.rs"]
mod model;
#[path = "integration/regression.rs"]
mod regression;
#[path = "integration/relate.rs"]
mod relate;
#[path = "integration/shelf.rs"]
mod shelf;
#[path = "integration/views.rs"]
mod views;

//! Compares code highlighters on the benchmark corpus's unique code blocks (issue 17): for each
//! engine, grammar load time, CPU and wall time on one thread over every block, per-language
//! cost, coverage of the six languages, whether the HTML keeps the text exactly, spans per
//! block, and a sample of its HTML.
//!
//! ```text
//! cargo run --release -- [--notes 10000] [--engine syntect|tree-sitter|giallo] [--samples]
//! cargo run --release --no-default-features --features fancy -- --engine syntect
//! ```

mod blocks;
mod clock;
#[allow(dead_code)]
#[path = "../../../examples/gen_corpus/code.rs"]
mod code;
#[allow(dead_code)]
#[path = "../../../examples/gen_corpus/corpus.rs"]
mod corpus;
mod engines;
mod report;

use engines::Engine;

struct Args {
    notes: usize,
    engines: Vec<String>,
    samples: bool,
}

fn main() {
    let args = parse_args();
    let started = clock::Times::now();
    let blocks = blocks::corpus(args.notes);
    eprintln!(
        "{} blocks from {} notes generated in {}",
        blocks.len(),
        args.notes,
        started.elapsed()
    );
    for name in &args.engines {
        let load = clock::Times::now();
        let mut engine: Box<dyn Engine> = match name.as_str() {
            "syntect" => Box::new(engines::syntect::Syntect::new()),
            "tree-sitter" => Box::new(engines::tree_sitter::TreeSitter::new()),
            "giallo" => Box::new(engines::giallo::Giallo::new()),
            other => {
                eprintln!("error: no engine `{other}` (syntect, tree-sitter, giallo)");
                std::process::exit(2);
            }
        };
        let load = load.elapsed();
        let run = report::run(engine.as_mut(), &blocks);
        report::print(&engine.name(), &load, &run, args.samples);
    }
}

fn parse_args() -> Args {
    let mut args = Args {
        notes: 10_000,
        engines: Vec::new(),
        samples: false,
    };
    let mut argv = std::env::args().skip(1);
    while let Some(arg) = argv.next() {
        match arg.as_str() {
            "--notes" => {
                args.notes = argv
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| usage())
            }
            "--engine" => args.engines.push(argv.next().unwrap_or_else(|| usage())),
            "--samples" => args.samples = true,
            _ => usage(),
        }
    }
    if args.engines.is_empty() {
        args.engines = ["syntect", "tree-sitter", "giallo"]
            .map(String::from)
            .to_vec();
    }
    args
}

fn usage() -> ! {
    eprintln!(
        "usage: highlighters [--notes N] [--engine syntect|tree-sitter|giallo]... [--samples]"
    );
    std::process::exit(2);
}

//! Times code highlighting on unique blocks like the benchmark corpus's (TypeScript, JSON,
//! YAML, TOML, shell, Python from `gen_corpus`'s seeded generator), on one thread, with no
//! cache able to answer: the cost a cold build pays per block.
//!
//! ```text
//! cargo run --release --example highlight_bench -- 10000
//! cargo run --release --no-default-features --features highlight-fancy --example highlight_bench -- 10000
//! ```

#[allow(dead_code)]
#[path = "gen_corpus/code.rs"]
mod code;
#[allow(dead_code)]
#[path = "gen_corpus/corpus.rs"]
mod corpus;

use fieldnotes::render::highlight::{code_block, highlighter_id};
use std::time::{Duration, Instant};

fn main() {
    let blocks: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    let mut rng = corpus::Rng::new();
    let mut per_language = vec![(Duration::ZERO, 0usize, 0usize); code::LANGUAGES.len()];
    let mut total = Duration::ZERO;
    for n in 0..blocks {
        let l = n % code::LANGUAGES.len();
        let fenced = code::block(code::LANGUAGES[l], n, &mut rng);
        let body = &fenced[fenced.find('\n').unwrap() + 1..fenced.len() - "```\n\n".len()];
        let start = Instant::now();
        let html = code_block(code::LANGUAGES[l], body, usize::MAX);
        let spent = start.elapsed();
        total += spent;
        let entry = &mut per_language[l];
        entry.0 += spent;
        entry.1 += 1;
        entry.2 += usize::from(html.contains("<span class=\"hl-"));
    }
    println!(
        "{} — {blocks} unique blocks in {total:.2?}",
        highlighter_id()
    );
    for (l, (spent, count, highlighted)) in per_language.iter().enumerate() {
        println!(
            "  {:<11} {count:>6} blocks, {highlighted:>6} highlighted, {:>8.1} µs/block",
            code::LANGUAGES[l],
            spent.as_secs_f64() * 1e6 / (*count).max(1) as f64
        );
    }
}

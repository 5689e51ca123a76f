//! Prints how long each pipeline step takes on a site: `stage_times DIR`.
use std::time::Instant;
fn main() {
    let root = std::path::PathBuf::from(std::env::args().nth(1).expect("usage: stage_times DIR"));
    let t = Instant::now();
    let loaded = fieldnotes::load::load(&root).expect("load");
    let t_load = t.elapsed();
    let t = Instant::now();
    let parsed = fieldnotes::parse::parse(loaded);
    let t_parse = t.elapsed();
    let t = Instant::now();
    let index = fieldnotes::index::index(parsed);
    let t_index = t.elapsed();
    let t = Instant::now();
    let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 30).expect("date");
    let findings = fieldnotes::lint::lint(&index, today).expect("lint");
    let t_lint = t.elapsed();
    println!("load {t_load:.2?}  parse {t_parse:.2?}  index {t_index:.2?}  lint {t_lint:.2?}  ({} findings)", findings.len());
}

//! The README's example, generated from a committed report so it cannot go stale: the
//! points-efficiency table of `reports/guns-n-grenades/` (its `efficiency.csv` and
//! `summary.json`) as Markdown, spliced between two marker lines of `README.md`.
//!
//! `pointsworth readme-example` (a hidden subcommand) rewrites the block after a report is
//! regenerated; a test compares the README's block with [`example`] of the committed report,
//! so a report change without the README's refresh fails the tests.

use std::path::Path;

use anyhow::{Context, bail};

use crate::format::{cost, number, pct, pct_interval, ratio};
use crate::stats::Estimate;

/// The line before the generated block.
pub const BEGIN: &str =
    "<!-- example: generated from reports/guns-n-grenades by `pointsworth readme-example`; do not edit -->";
/// The line after it.
pub const END: &str = "<!-- end of the generated example -->";

/// The example of the report in `dir` (e.g. `reports/guns-n-grenades`): a sentence naming
/// the ruleset, budget, distance and seed, then one table row per unit, best first: rank,
/// unit, kind, cost, points efficiency, 1v1 mean score and points per point killed, each with
/// its 95% interval. Errors: a file is missing or is not the report's format.
pub fn example(dir: &Path) -> anyhow::Result<String> {
    let summary_path = dir.join("summary.json");
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(&summary_path).with_context(|| format!("reading {}", summary_path.display()))?,
    )
    .with_context(|| format!("{} is not JSON", summary_path.display()))?;
    let field = |k: &str| summary.pointer(k).with_context(|| format!("{}: no {k}", summary_path.display()));
    let title = field("/title")?.as_str().unwrap_or_default();
    let unit = field("/duel/unit")?.as_str().unwrap_or_default();
    let distance = field("/duel/distance")?.as_f64().unwrap_or_default();
    let budget = field("/budget")?.as_f64().unwrap_or_default();
    let seed = field("/seed")?.as_u64().unwrap_or_default();
    let csv_path = dir.join("efficiency.csv");
    let mut reader = csv::Reader::from_path(&csv_path).with_context(|| format!("reading {}", csv_path.display()))?;
    let header = reader.headers()?.clone();
    let col = |name: &str| {
        header.iter().position(|h| h == name).with_context(|| format!("{}: no column {name}", csv_path.display()))
    };
    let (rank, name, kind, price) = (col("rank")?, col("name")?, col("kind")?, col("cost")?);
    let estimate = |stem: &str| -> anyhow::Result<[usize; 3]> {
        Ok([col(stem)?, col(&format!("{stem}_lo"))?, col(&format!("{stem}_hi"))?])
    };
    let (eff, one, ppk) = (estimate("efficiency")?, estimate("score_1v1")?, estimate("points_per_point_killed")?);
    let mut out = format!(
        "{title}, {}-point squads starting {} {unit} apart (seed {seed}), from `{}`:\n\n\
         | rank | unit | kind | cost | efficiency | 1v1 mean score | points per point killed |\n\
         |---:|---|---|---:|---|---|---|\n",
        cost(budget),
        number(distance, 2),
        csv_path.display()
    );
    for row in reader.records() {
        let row = row?;
        let num = |i: usize| -> anyhow::Result<f64> {
            row.get(i)
                .unwrap_or_default()
                .parse::<f64>()
                .with_context(|| format!("{}: {:?}", csv_path.display(), row.get(i)))
        };
        let est = |c: [usize; 3]| -> anyhow::Result<Option<Estimate>> {
            if row.get(c[0]).unwrap_or_default().is_empty() {
                return Ok(None);
            }
            Ok(Some(Estimate { value: num(c[0])?, lo: num(c[1])?, hi: num(c[2])? }))
        };
        let shown = |e: Option<Estimate>, f: fn(&Estimate) -> String| e.as_ref().map_or("—".to_string(), f);
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            row.get(rank).unwrap_or_default(),
            row.get(name).unwrap_or_default(),
            row.get(kind).unwrap_or_default(),
            cost(num(price)?),
            shown(est(eff)?, pct_interval),
            shown(est(one)?, pct),
            shown(est(ppk)?, ratio),
        ));
    }
    Ok(out)
}

/// `readme` with the text between the [`BEGIN`] and [`END`] lines replaced by `example`.
/// Errors: either marker is missing, or END comes first.
pub fn splice(readme: &str, example: &str) -> anyhow::Result<String> {
    let (Some(b), Some(e)) = (readme.find(BEGIN), readme.find(END)) else {
        bail!("the README has no example markers ({BEGIN} ... {END})");
    };
    if e < b {
        bail!("the README's example markers are in the wrong order");
    }
    let start = b + BEGIN.len();
    Ok(format!("{}\n\n{example}\n{}", &readme[..start], &readme[e..]))
}

/// The README's current example block (between the markers, trimmed), if it has one.
pub fn current(readme: &str) -> Option<&str> {
    let b = readme.find(BEGIN)? + BEGIN.len();
    let e = readme.find(END)?;
    readme.get(b..e).map(str::trim)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The README's example is the committed report's table: regenerate it with
    /// `cargo run --release -- readme-example` after `pointsworth report`.
    #[test]
    fn the_readme_example_is_the_committed_reports_table() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let want = super::example(Path::new("reports/guns-n-grenades")).unwrap();
        let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
        let have = super::current(&readme).expect("README.md has the example markers");
        assert_eq!(
            have,
            want.trim(),
            "README.md's example is stale: refresh it with `cargo run --release -- readme-example`"
        );
        assert!(want.contains("| 1 | "), "{want}");
        // Splicing the same example again changes nothing.
        assert_eq!(super::splice(&readme, &want).unwrap(), readme);
    }
}

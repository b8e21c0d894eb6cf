//! The report pages in a real browser: Debian's `chromium`, headless.
//!
//! A small Guns 'N Grenades report (three units, every section at a test precision) and a
//! `check --html` page are written through the binary; each page is loaded in chromium with
//! a probe script added around the page's own (the pages themselves carry no test code). The
//! probe records every script error from the first line on, then, once the page has started,
//! does what a reader does — clicks a column heading, focuses a heatmap cell, clicks a unit,
//! filters the verdicts — and writes what it saw into the DOM, which `--dump-dom` prints after
//! the scripts ran. A screenshot of each page (and of the unit view) lands in the test's temp
//! directory; set `POINTSWORTH_KEEP_PAGES=DIR` to keep them.
//!
//! chromium comes from Debian (`apt-get install chromium`; `.ci/run` installs it when missing).
//! Without it these tests say so loudly and pass, except under CI (`CI` set), where a missing
//! browser fails them: CI must run them.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common;

/// The chromium binary: `POINTSWORTH_CHROMIUM`, else the first of Debian's names on the PATH.
fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("POINTSWORTH_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |d| d.join(name)))
        .find(|p| p.is_file())
}

/// chromium, or `None` after a loud message when it is missing outside CI; under CI a missing
/// browser is a failure.
fn browser() -> Option<PathBuf> {
    let found = chromium();
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must run the browser tests: chromium is missing (.ci/run installs it with apt-get)"
        );
        eprintln!(
            "\n==========================================================================\n\
             SKIPPED: the browser tests need Debian's chromium (apt-get install chromium);\n\
             none found on the PATH (or set POINTSWORTH_CHROMIUM).\n\
             ==========================================================================\n"
        );
    }
    found
}

/// The flags every run uses (headless, no network side traffic), with a fresh profile in `tmp`.
fn base_args(tmp: &Path) -> Vec<String> {
    let profile = tempfile::tempdir_in(tmp).unwrap().keep();
    [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect()
}

fn url(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// Loads `page` with `probe` (a script body run after the page started) and returns what the
/// probe wrote: a JSON object, `errors` holding every script error seen.
fn probe(chromium: &Path, tmp: &Path, page: &Path, probe: &str) -> serde_json::Value {
    let html = std::fs::read_to_string(page).unwrap();
    let catch = "<script>window.__errors=[];addEventListener('error',function(e){__errors.push(String(e.message))});\
                 addEventListener('unhandledrejection',function(e){__errors.push(String(e.reason))});</script>";
    let run = format!(
        "<script>addEventListener('load',function(){{var out={{}};try{{(function(out){{{probe}}})(out);}}\
         catch(e){{__errors.push('probe: '+e.message);}}out.errors=__errors;var p=document.createElement('pre');\
         p.id='probe-result';p.textContent=JSON.stringify(out);document.body.appendChild(p);}});</script>"
    );
    let html = html.replacen("<head>", &format!("<head>{catch}"), 1).replacen("</body>", &format!("{run}</body>"), 1);
    // Beside the page, so its links and the index's relative paths resolve alike.
    let probed = page.with_file_name(format!("probe-{}", page.file_name().unwrap().to_string_lossy()));
    std::fs::write(&probed, html).unwrap();
    let out = Command::new(chromium)
        .args(base_args(tmp))
        .args(["--virtual-time-budget=5000", "--dump-dom"])
        .arg(url(&probed))
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&probed);
    let dom = String::from_utf8_lossy(&out.stdout);
    let start = dom.find("<pre id=\"probe-result\">").unwrap_or_else(|| {
        panic!("{}: no probe result; chromium said: {}", page.display(), String::from_utf8_lossy(&out.stderr))
    });
    let body = &dom[start + "<pre id=\"probe-result\">".len()..];
    let body = &body[..body.find("</pre>").unwrap()];
    let json = body.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&");
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{}: probe result {json}: {e}", page.display()))
}

/// A screenshot of `target` (a page URL, maybe with a fragment) into `png`, 1400 × 1000.
fn screenshot(chromium: &Path, tmp: &Path, target: &str, png: &Path) {
    let out = Command::new(chromium)
        .args(base_args(tmp))
        .args(["--window-size=1400,1000", "--virtual-time-budget=3000"])
        .arg(format!("--screenshot={}", png.display()))
        .arg(target)
        .output()
        .unwrap();
    let len = std::fs::metadata(png).map(|m| m.len()).unwrap_or(0);
    assert!(
        len > 10_000,
        "{target}: no screenshot ({len} bytes); chromium said: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn pointsworth(dir: &Path, args: &[&str]) -> std::process::Output {
    let out = assert_cmd::Command::cargo_bin("pointsworth").unwrap().current_dir(dir).args(args).output().unwrap();
    assert!(
        out.status.success() || out.status.code() == Some(1),
        "pointsworth {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// What the probe of a ruleset page does: sorts, hovers, opens a unit, filters.
const REPORT_PROBE: &str = r#"
var rows = function () { return Array.prototype.slice.call(document.querySelectorAll('#verdict-table tbody tr')); };
out.verdictRows = rows().length;
out.verdictUnits = rows().map(function (r) { return r.getAttribute('data-unit'); });
var costHead = document.querySelectorAll('#verdict-table thead th')[1];
costHead.querySelector('button').click();
out.sortAscending = rows().map(function (r) { return parseFloat(r.cells[1].getAttribute('data-sort')); });
out.ariaSort = costHead.getAttribute('aria-sort');
costHead.querySelector('button').click();
out.sortDescending = rows().map(function (r) { return parseFloat(r.cells[1].getAttribute('data-sort')); });
var cell = document.querySelector('#heat-points td[data-tip]');
cell.focus();
var tip = document.getElementById('tip');
out.cellTip = cell.getAttribute('data-tip');
out.tipShown = !tip.hidden;
out.tipText = tip.textContent;
out.heatCells = document.querySelectorAll('#heat-points td[tabindex]').length;
out.heatTabStops = document.querySelectorAll('#heat-points td[tabindex="0"]').length;
cell.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
out.arrowMoved = document.activeElement !== cell && document.activeElement.tagName === 'TD';
out.arrowTip = tip.textContent;
out.charts = Array.prototype.map.call(document.querySelectorAll('.chart[data-chart]'), function (c) {
  return [c.getAttribute('data-chart'), c.querySelectorAll('svg').length, c.querySelectorAll('.hot').length];
});
var first = document.querySelector('#verdict-table button.unit');
out.clicked = first.textContent;
first.click();
var dlg = document.getElementById('unit-view');
out.unitOpen = dlg.open;
out.unitTitle = dlg.querySelector('h2').textContent;
out.unitMatchups = dlg.querySelectorAll('#unit-matchups tbody tr').length;
out.unitCharts = dlg.querySelectorAll('svg').length;
dlg.querySelector('button.close').click();
out.unitClosed = !dlg.open;
var f = document.getElementById('verdict-filter');
var want = out.verdictFirst = rows()[0].getAttribute('data-verdict');
f.value = want;
f.dispatchEvent(new Event('input'));
out.filteredShown = rows().filter(function (r) { return !r.hidden; }).length;
out.filteredExpected = rows().filter(function (r) { return r.getAttribute('data-verdict') === want; }).length;
out.details = document.querySelectorAll('details.section').length;
"#;

#[test]
fn the_pages_work_in_a_real_browser() {
    let Some(chromium) = browser() else { return };
    let repo = common::repo_dir();
    let tmp = tempfile::tempdir().unwrap();
    let (header, blocks) = common::small_gng_config(&["Riflemen", "Snipers", "Mortar"], "[6, 12]");
    let config = repo.path().join("small.toml");
    std::fs::write(&config, format!("{header}\n{}", blocks.join("\n"))).unwrap();
    let out = tmp.path().join("reports");
    let (config_s, out_s) = (config.to_str().unwrap(), out.to_str().unwrap());
    pointsworth(repo.path(), &["report", "guns-n-grenades", "--config", config_s, "--trials", "400", "--out", out_s]);
    let check_html = tmp.path().join("check.html");
    pointsworth(
        repo.path(),
        &[
            "check",
            "guns-n-grenades",
            "--config",
            config_s,
            "--baseline",
            out_s,
            "--quick",
            "--html",
            check_html.to_str().unwrap(),
        ],
    );
    let page = out.join("guns-n-grenades").join("report.html");
    let size = std::fs::metadata(&page).unwrap().len();
    assert!(size < 2_000_000, "report.html is {size} bytes");

    // The ruleset page.
    let r = probe(&chromium, tmp.path(), &page, REPORT_PROBE);
    assert_eq!(r["errors"], serde_json::json!([]), "script errors: {r}");
    assert_eq!(r["verdictRows"], 3, "one verdict row per unit: {r}");
    let asc: Vec<f64> = serde_json::from_value(r["sortAscending"].clone()).unwrap();
    let desc: Vec<f64> = serde_json::from_value(r["sortDescending"].clone()).unwrap();
    assert!(asc.windows(2).all(|w| w[0] <= w[1]) && asc.first() < asc.last(), "sorted by cost: {asc:?}");
    assert!(desc.windows(2).all(|w| w[0] >= w[1]), "sorted by cost, descending: {desc:?}");
    assert_eq!(r["ariaSort"], "ascending");
    let tip = r["tipText"].as_str().unwrap();
    assert_eq!(r["tipShown"], true, "focusing a cell shows its tip: {r}");
    assert!(
        tip.contains('[') && tip.contains(']') && tip.contains("trials"),
        "a cell shows its interval and trials: {tip}"
    );
    assert_eq!(r["heatCells"], 9, "3 × 3 focusable cells: {r}");
    assert_eq!(r["heatTabStops"], 1, "one tab stop per heatmap: {r}");
    assert_eq!(r["arrowMoved"], true, "an arrow key moves to the next cell: {r}");
    assert_ne!(r["arrowTip"], r["tipText"], "and shows that cell's tip: {r}");
    for c in r["charts"].as_array().unwrap() {
        assert_eq!(c[1], 1, "chart {c} drew its SVG");
        assert!(c[2].as_u64().unwrap() > 0, "chart {c} has points to hover");
    }
    assert!(r["charts"].as_array().unwrap().len() >= 3, "{r}");
    assert_eq!(r["unitOpen"], true, "clicking a unit opens its view: {r}");
    assert!(r["unitTitle"].as_str().unwrap().starts_with(r["clicked"].as_str().unwrap()), "{r}");
    assert_eq!(r["unitMatchups"], 3, "the unit's row of matchups: {r}");
    assert!(r["unitCharts"].as_u64().unwrap() >= 3, "distance, fair-cost curve, value per game: {r}");
    assert_eq!(r["unitClosed"], true);
    assert_eq!(r["filteredShown"], r["filteredExpected"], "{r}");
    assert!(r["details"].as_u64().unwrap() >= 8, "collapsible sections: {r}");

    // The index and the check page.
    let index = out.join("index.html");
    let i = probe(
        &chromium,
        tmp.path(),
        &index,
        "out.cards = document.querySelectorAll('.card').length; out.links = Array.prototype.map.call(document.querySelectorAll('.card h2 a'), function (a) { return a.getAttribute('href'); });",
    );
    assert_eq!(i["errors"], serde_json::json!([]), "{i}");
    assert_eq!(i["cards"], 1, "{i}");
    assert_eq!(i["links"], serde_json::json!(["guns-n-grenades/report.html"]));
    let c = probe(
        &chromium,
        tmp.path(),
        &check_html,
        "out.title = document.querySelector('h1').textContent; out.tables = document.querySelectorAll('table').length;",
    );
    assert_eq!(c["errors"], serde_json::json!([]), "{c}");
    assert!(c["title"].as_str().unwrap().starts_with("pointsworth check"), "{c}");

    // Screenshots.
    let shots = match std::env::var_os("POINTSWORTH_KEEP_PAGES") {
        Some(d) => PathBuf::from(d),
        None => tmp.path().join("screenshots"),
    };
    std::fs::create_dir_all(&shots).unwrap();
    let unit = r["verdictUnits"][0].as_str().unwrap();
    screenshot(&chromium, tmp.path(), &url(&page), &shots.join("report.png"));
    screenshot(&chromium, tmp.path(), &format!("{}#unit={unit}", url(&page)), &shots.join("unit-view.png"));
    screenshot(&chromium, tmp.path(), &url(&index), &shots.join("index.png"));
    screenshot(&chromium, tmp.path(), &url(&check_html), &shots.join("check.png"));
}

//! Every relative link of the README, the changelog and `docs/**/*.md` resolves (issue 45): the
//! reference moved out of the README into `docs/`, and a link to a file that moved, or to a
//! heading that was renamed, would otherwise break silently. A link resolves when its file or
//! folder exists (relative to the linking file) and, for `FILE.md#anchor` or `#anchor`, when
//! the target file has a heading of that anchor as GitHub makes them (lower case, punctuation
//! dropped, spaces to hyphens, `-1`, `-2`, ... on repeats). Links with a scheme (`https:`,
//! `mailto:`) are not fetched.

use std::collections::{BTreeSet, HashMap};
use std::path::{Component, Path, PathBuf};

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn parser(text: &str) -> Parser<'_> {
    Parser::new_ext(text, Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES | Options::ENABLE_STRIKETHROUGH)
}

/// GitHub's anchor of a heading's text.
fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown text's headings, repeats numbered as GitHub numbers them.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut heading: Option<String> = None;
    for event in parser(text) {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::End(TagEnd::Heading(_)) => {
                let base = slug(&heading.take().unwrap_or_default());
                let n = seen.entry(base.clone()).or_insert(0);
                out.insert(if *n == 0 { base.clone() } else { format!("{base}-{n}") });
                *n += 1;
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            _ => {}
        }
    }
    out
}

/// The link and image targets of a Markdown text.
fn links(text: &str) -> Vec<String> {
    parser(text)
        .filter_map(|e| match e {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => Some(dest_url.to_string()),
            _ => None,
        })
        .collect()
}

/// `a/b/../c` → `a/c`, without touching the file system.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// The broken relative links of `file` (a path under `root`), each with why; and how many
/// relative links it has.
fn broken_links(root: &Path, file: &Path) -> (Vec<String>, usize) {
    let text = std::fs::read_to_string(root.join(file)).unwrap();
    let mut broken = Vec::new();
    let mut checked = 0;
    for link in links(&text) {
        if link.contains("://") || link.starts_with("mailto:") {
            continue;
        }
        checked += 1;
        let (path, anchor) = match link.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (link.as_str(), None),
        };
        let target = if path.is_empty() {
            file.to_path_buf()
        } else {
            normalize(&file.parent().unwrap_or(Path::new("")).join(path))
        };
        if !root.join(&target).exists() {
            broken.push(format!("{}: [{link}]: {} does not exist", file.display(), target.display()));
            continue;
        }
        let Some(anchor) = anchor else { continue };
        if target.extension().is_some_and(|e| e == "md") {
            let headings = anchors(&std::fs::read_to_string(root.join(&target)).unwrap());
            if !headings.contains(anchor) {
                broken.push(format!("{}: [{link}]: {} has no heading #{anchor}", file.display(), target.display()));
            }
        }
    }
    (broken, checked)
}

/// `dir`'s Markdown files, recursively, relative to `root`.
fn markdown_under(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(root.join(dir)).unwrap() {
        let name = dir.join(entry.unwrap().file_name());
        if root.join(&name).is_dir() {
            markdown_under(root, &name, out);
        } else if name.extension().is_some_and(|e| e == "md") {
            out.push(name);
        }
    }
}

#[test]
fn every_relative_link_of_the_readme_and_docs_resolves() {
    let mut files = vec![PathBuf::from("README.md"), PathBuf::from("CHANGELOG.md")];
    markdown_under(root(), Path::new("docs"), &mut files);
    assert!(files.len() >= 10, "{files:?}");
    let mut broken = Vec::new();
    let mut checked = 0;
    for f in &files {
        let (b, n) = broken_links(root(), f);
        broken.extend(b);
        checked += n;
    }
    // The README alone links to its own sections, docs/ and the rulings pages.
    assert!(checked > 50, "only {checked} relative links in {} files", files.len());
    assert!(broken.is_empty(), "{} broken links:\n{}", broken.len(), broken.join("\n"));
}

#[test]
fn every_reference_page_is_linked_from_the_readme() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let linked: BTreeSet<String> =
        links(&readme).into_iter().map(|l| l.split('#').next().unwrap().to_string()).collect();
    let mut pages = Vec::new();
    markdown_under(root(), Path::new("docs"), &mut pages);
    for page in pages.iter().filter(|p| p.parent() == Some(Path::new("docs"))) {
        let page = page.to_str().unwrap().to_string();
        assert!(linked.contains(&page), "README.md does not link to {page}");
    }
}

#[test]
fn the_link_check_finds_a_missing_file_and_a_missing_heading() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("docs")).unwrap();
    std::fs::write(
        dir.path().join("docs/a.md"),
        "# A page\n\n## Guns 'N Grenades: `check` today\n\n## Twice\n\n## Twice\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("README.md"),
        "# Top\n\n[ok](docs/a.md#guns-n-grenades-check-today) [ok](docs/a.md#twice-1) [ok](#top) \
         [ok](https://example.com/x#y)\n[gone](docs/b.md) [bad anchor](docs/a.md#nowhere) [bad](#bottom) \
         [third](docs/a.md#twice-2)\n\n```\n[not a link](nowhere.md)\n```\n",
    )
    .unwrap();
    let (broken, checked) = broken_links(dir.path(), Path::new("README.md"));
    assert_eq!(checked, 7, "{broken:?}");
    assert_eq!(broken.len(), 4, "{broken:?}");
    assert!(broken[0].contains("docs/b.md does not exist"), "{broken:?}");
    assert!(broken[1].contains("has no heading #nowhere"), "{broken:?}");
    assert!(broken[2].contains("#bottom"), "{broken:?}");
    assert!(broken[3].contains("#twice-2"), "{broken:?}");
    // From docs/a.md, `../README.md#top` climbs out of docs/.
    std::fs::write(dir.path().join("docs/c.md"), "[up](../README.md#top) [up](a.md#a-page)\n").unwrap();
    assert_eq!(broken_links(dir.path(), Path::new("docs/c.md")), (vec![], 2));
}

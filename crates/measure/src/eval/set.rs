//! The labelled set: reading its JSON lines, and refusing a label nobody could mean.

use anyhow::{Context, bail};
use serde::Deserialize;

/// The largest set read (bytes) and the longest question (characters).
const MAX_SET_BYTES: u64 = 16 * 1024 * 1024;

#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Item {
    pub(crate) text: String,
    pub(crate) expected: String,
    #[serde(default)]
    pub(crate) kind: String,
    #[serde(default)]
    pub(crate) lang: String,
}

/// The labels an item may expect: the set's five (`tutor`, `library`, `marketing`,
/// `clarify`, `unsupported`) and any configured specialist's or capability's id. Anything
/// else is a typo that would silently count as `unsupported`, so the set is refused.
pub(crate) fn check_labels(
    path: &std::path::Path,
    items: &[Item],
    config: &hub::Config,
) -> anyhow::Result<()> {
    const SET_LABELS: [&str; 5] = ["tutor", "library", "marketing", "clarify", "unsupported"];
    let known = |label: &str| {
        SET_LABELS.contains(&label)
            || config.specialists.iter().any(|s| s.id == label || s.capability.id == label)
    };
    if let Some((n, item)) = items.iter().enumerate().find(|(_, i)| !known(&i.expected)) {
        bail!(
            "{} item {}: unknown expected label {:?} (one of {}, or a configured specialist's id)",
            path.display(),
            n + 1,
            item.expected,
            SET_LABELS.join(", ")
        );
    }
    Ok(())
}

pub(crate) fn read_set(path: &std::path::Path) -> anyhow::Result<Vec<Item>> {
    let meta = std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    if meta.len() > MAX_SET_BYTES {
        bail!("{} is larger than {} MiB", path.display(), MAX_SET_BYTES / 1024 / 1024);
    }
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut items = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let item: Item = serde_json::from_str(line)
            .with_context(|| format!("{} line {}: not a labelled item", path.display(), i + 1))?;
        if item.text.chars().count() > hub::MAX_QUESTION {
            bail!("{} line {}: the question is longer than the hub accepts", path.display(), i + 1);
        }
        items.push(item);
    }
    if items.is_empty() {
        bail!("{} holds no items", path.display());
    }
    Ok(items)
}

#[cfg(test)]
mod tests {
    /// Character trigrams of a text, folded (lowercase, letters and digits, single spaces).
    fn trigrams(text: &str) -> std::collections::HashSet<String> {
        let folded: String = text.chars().map(intent::text::fold).collect();
        let words: Vec<&str> =
            folded.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
        let chars: Vec<char> = format!(" {} ", words.join(" ")).chars().collect();
        chars.windows(3).map(|w| w.iter().collect()).collect()
    }

    /// The router learns from the default cards and out-of-scope examples, never from the
    /// dev set: no training text is a copy or a near-copy of a dev item (character-trigram
    /// Jaccard similarity at most 0.5: six blind-written examples above it were dropped).
    #[test]
    fn no_training_text_is_a_near_copy_of_a_dev_item() {
        let config = hub::Config::from_env(&|_| None).unwrap();
        let training = hub::training(&crate::eval::observe::default_view(&config), &config.out_of_scope);
        let dev = super::read_set(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../eval/routing-dev.v1.jsonl"),
        )
        .unwrap();
        let dev: Vec<(String, std::collections::HashSet<String>)> =
            dev.into_iter().map(|i| (i.text.clone(), trigrams(&i.text))).collect();
        let texts: Vec<&String> =
            training.skills.iter().flat_map(|s| &s.texts).chain(&training.out_of_scope).collect();
        assert!(texts.len() > 500, "{} training texts", texts.len());
        for text in texts {
            let t = trigrams(text);
            for (item, d) in &dev {
                let jaccard = t.intersection(d).count() as f64 / t.union(d).count() as f64;
                assert!(jaccard <= 0.5, "{text:?} is too close to the dev item {item:?} ({jaccard:.2})");
            }
        }
    }

    /// A misspelled or unknown expected label is refused, naming the item; the set's five
    /// labels and configured ids are accepted.
    #[test]
    fn an_unknown_expected_label_is_refused() {
        let config = hub::Config::from_env(&|_| None).unwrap();
        let item = |expected: &str| super::Item {
            text: "integrate x^2".into(),
            expected: expected.into(),
            kind: String::new(),
            lang: String::new(),
        };
        let path = std::path::Path::new("set.jsonl");
        let good: Vec<_> =
            ["tutor", "library", "marketing", "clarify", "unsupported", "tutoring"].map(item).to_vec();
        super::check_labels(path, &good, &config).unwrap();
        for bad in ["tutr", "Tutor", ""] {
            let items = vec![item("library"), item(bad)];
            let e = super::check_labels(path, &items, &config).unwrap_err().to_string();
            assert!(e.contains("item 2") && e.contains(&format!("{bad:?}")), "{e}");
        }
    }
}

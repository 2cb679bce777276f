//! The retrieval under [`crate::extract`]: the enabled skills' texts as terms
//! ([`crate::words`]), a skill score for choosing the skill and Okapi BM25 over content lines
//! for choosing its lines.
//!
//! **Skill evidence.** Each distinct question term scores the best field of a skill it is
//! in: name or tags 3, description 2, content 1 (numbers never score: "2 + 2" is not a
//! library question). Examples count only when no skill has any other evidence (1 a
//! term): they are the router's many phrasings, not the Library's facts. Plain weights, no
//! rarity: two skills whose names are each named once ("printing hours?") tie, as they
//! should.
//!
//! **Lines.** BM25 (k1 = 1.2, b = 0.75) with document frequencies over every enabled
//! skill's lines; in a line (not in choosing the skill) a term also matches its
//! [`alternatives`] ("book" matches "renew an item").
//!
//! **Typos.** A question term no enabled skill has in its name, tags, description or
//! content is read as the term of those one edit away (from 5 letters; two from 8; a swap
//! of neighbours is one edit): "hourz" → "hour", "mondy" → "monday", "thrusday" →
//! "thursday". Key terms are never changed.

use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet};

use crate::words::{alternatives, terms, text_terms};

/// What [`crate::answer`] reads of one enabled skill.
#[derive(Debug, Clone, Copy)]
pub struct SkillText<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub description: &'a str,
    pub tags: &'a [String],
    /// Example questions: weak evidence for choosing the skill.
    pub examples: &'a [String],
    /// The saved answer content, one fact per line.
    pub content: &'a str,
}

const TOPIC_WEIGHT: f64 = 3.0;
const DESCRIPTION_WEIGHT: f64 = 2.0;
const CONTENT_WEIGHT: f64 = 1.0;
const EXAMPLE_WEIGHT: f64 = 1.0;
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// One content line: its text (trailing whitespace trimmed) and terms.
pub(crate) struct Line<'a> {
    pub(crate) text: &'a str,
    terms: Vec<String>,
    pub(crate) set: BTreeSet<String>,
}

/// One skill, tokenized once.
pub(crate) struct Profile<'a> {
    pub(crate) skill: SkillText<'a>,
    pub(crate) name: BTreeSet<String>,
    pub(crate) tags: BTreeSet<String>,
    pub(crate) description: BTreeSet<String>,
    /// Read only when needed (a fallback and the typo vocabulary).
    examples: OnceCell<BTreeSet<String>>,
    pub(crate) lines: Vec<Line<'a>>,
    pub(crate) content: BTreeSet<String>,
}

impl<'a> Profile<'a> {
    fn new(skill: &SkillText<'a>) -> Self {
        let lines: Vec<Line<'a>> = skill
            .content
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.trim_start().is_empty())
            .map(|l| {
                let mut terms = text_terms(l);
                // a line that states an amount of money is a price ("€0.10 per page")
                if states_a_price(l) {
                    terms.push(PRICE.to_string());
                }
                Line { text: l, set: terms.iter().cloned().collect(), terms }
            })
            .collect();
        let set = |text: &str| -> BTreeSet<String> { text_terms(text).into_iter().collect() };
        Self {
            skill: *skill,
            name: set(skill.name),
            tags: skill.tags.iter().flat_map(|t| text_terms(t)).collect(),
            description: set(skill.description),
            examples: OnceCell::new(),
            content: lines.iter().flat_map(|l| l.set.iter().cloned()).collect(),
            lines,
        }
    }

    /// Whether `term` names this skill's topic (name, tags or description).
    pub(crate) fn is_topic(&self, term: &str) -> bool {
        self.name.contains(term) || self.tags.contains(term) || self.description.contains(term)
    }

    fn weight(&self, term: &str) -> f64 {
        if self.name.contains(term) || self.tags.contains(term) {
            TOPIC_WEIGHT
        } else if self.description.contains(term) {
            DESCRIPTION_WEIGHT
        } else if self.content.contains(term) {
            CONTENT_WEIGHT
        } else {
            0.0
        }
    }

    fn examples(&self) -> &BTreeSet<String> {
        self.examples.get_or_init(|| self.skill.examples.iter().flat_map(|t| terms(t)).collect())
    }
}

/// The term of a price (stemmed "price").
const PRICE: &str = "pric";

/// Whether `line` states an amount of money: a currency sign before a digit.
fn states_a_price(line: &str) -> bool {
    let chars: Vec<char> = line.chars().collect();
    chars.windows(2).any(|p| matches!(p[0], '€' | '$' | '£' | '₹') && p[1].is_ascii_digit())
}

/// Whether a line has `term` or one of its alternatives.
pub(crate) fn hits(line: &BTreeSet<String>, term: &str) -> bool {
    line.contains(term) || alternatives(term).iter().any(|a| line.contains(*a))
}

/// The enabled skills that have content, indexed.
pub(crate) struct Index<'a> {
    pub(crate) profiles: Vec<Profile<'a>>,
    lines: usize,
    average_length: f64,
}

impl<'a> Index<'a> {
    pub(crate) fn new(skills: &[SkillText<'a>]) -> Self {
        let profiles: Vec<Profile<'a>> =
            skills.iter().map(Profile::new).filter(|p| !p.lines.is_empty()).collect();
        let all = || profiles.iter().flat_map(|p| &p.lines);
        let lines = all().count();
        let length: usize = all().map(|l| l.terms.len()).sum();
        Self { average_length: length as f64 / lines.max(1) as f64, lines, profiles }
    }

    /// Whether any skill's name, tags, description or content has `term`.
    pub(crate) fn knows(&self, term: &str) -> bool {
        self.profiles.iter().any(|p| p.weight(term) > 0.0)
    }

    pub(crate) fn profile(&self, id: &str) -> Option<&Profile<'a>> {
        self.profiles.iter().find(|p| p.skill.id == id)
    }

    /// `asked` without repeats, each term no skill's name, tags, description or content has
    /// read as the term of those nearest to it, when one is near (a key term is never
    /// changed: "lost" stays lost).
    pub(crate) fn corrected(&self, asked: &[String]) -> Vec<String> {
        let known = |t: &str| self.knows(t);
        let mut out: Vec<String> = Vec::new();
        for term in asked {
            let fixed = if known(term) || crate::words::is_number(term) || crate::words::is_key(term) {
                term.clone()
            } else {
                self.nearest(term).unwrap_or_else(|| term.clone())
            };
            if !out.contains(&fixed) {
                out.push(fixed);
            }
        }
        out
    }

    /// The terms of `asked` in `profile`'s name or tags.
    pub(crate) fn named<'q>(profile: &Profile<'_>, asked: &'q [String]) -> BTreeSet<&'q String> {
        asked.iter().filter(|t| profile.name.contains(*t) || profile.tags.contains(*t)).collect()
    }

    fn nearest(&self, term: &str) -> Option<String> {
        let len = term.chars().count();
        if len < 5 || !term.chars().all(|c| c.is_ascii_lowercase()) {
            return None;
        }
        let limit = if len >= 8 { 2 } else { 1 };
        let vocabulary: BTreeSet<&String> = self
            .profiles
            .iter()
            .flat_map(|p| [&p.name, &p.tags, &p.description, &p.content])
            .flatten()
            .collect();
        vocabulary
            .into_iter()
            .filter(|v| v.chars().count() >= 3)
            .map(|v| (edits(term, v), v))
            .filter(|(d, _)| *d <= limit)
            .min_by_key(|(d, _)| *d)
            .map(|(_, v)| v.clone())
    }

    /// Each profile's skill evidence for `asked` (in profile order).
    pub(crate) fn skill_scores(&self, asked: &[String]) -> Vec<f64> {
        let score = |weight: &dyn Fn(&Profile<'_>, &str) -> f64| -> Vec<f64> {
            self.profiles
                .iter()
                .map(|p| asked.iter().filter(|t| !crate::words::is_number(t)).map(|t| weight(p, t)).sum())
                .collect()
        };
        let main = score(&|p, t| p.weight(t));
        if main.iter().any(|s| *s > 0.0) {
            return main;
        }
        score(&|p, t| if p.examples().contains(t) { EXAMPLE_WEIGHT } else { 0.0 })
    }

    /// The share of all lines that have `term` (or an alternative).
    pub(crate) fn share(&self, term: &str) -> f64 {
        self.lines_with(term) as f64 / self.lines.max(1) as f64
    }

    /// How many lines have `term` (or an alternative).
    pub(crate) fn lines_with(&self, term: &str) -> usize {
        self.profiles.iter().flat_map(|p| &p.lines).filter(|l| hits(&l.set, term)).count()
    }

    /// The BM25 score of each of `profile`'s lines for `selectors`.
    pub(crate) fn line_scores(&self, profile: &Profile<'_>, selectors: &[&String]) -> Vec<f64> {
        let n = self.lines as f64;
        let df = |t: &str| self.share(t) * n;
        let idf: Vec<f64> =
            selectors.iter().map(|t| (1.0 + (n - df(t) + 0.5) / (df(t) + 0.5)).ln()).collect();
        profile
            .lines
            .iter()
            .map(|line| {
                let length = line.terms.len() as f64 / self.average_length.max(1.0);
                selectors
                    .iter()
                    .zip(&idf)
                    .map(|(t, idf)| {
                        let tf = line
                            .terms
                            .iter()
                            .filter(|x| *x == *t || alternatives(t).contains(&x.as_str()))
                            .count() as f64;
                        idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * length))
                    })
                    .sum()
            })
            .collect()
    }
}

/// Edits between two words (optimal string alignment: insert, delete, replace, swap).
fn edits(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > 2 {
        return usize::MAX;
    }
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// How many lines each term of `sets` is in, for the specificity rule.
pub(crate) fn line_counts<'s>(sets: &[BTreeSet<&'s String>]) -> BTreeMap<&'s String, usize> {
    let mut counts = BTreeMap::new();
    for set in sets {
        for t in set {
            *counts.entry(*t).or_insert(0) += 1;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::edits;

    #[test]
    fn edits_count_swaps_as_one() {
        assert_eq!(edits("librray", "library"), 1);
        assert_eq!(edits("mondy", "monday"), 1);
        assert_eq!(edits("thrusday", "thursday"), 1);
        assert_eq!(edits("hourz", "hour"), 1);
        assert_eq!(edits("print", "print"), 0);
        assert!(edits("renew", "room") > 2);
    }
}

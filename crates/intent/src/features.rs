//! TF-IDF over two blocks of features, each normalized on its own: words (unigrams,
//! bigrams of neighbouring content words, a marker for mathematics) and character
//! n-grams (3 to 5) of each content word, which carry misspellings and inflections.
//! Features are 64-bit FNV hashes of their text; the vocabulary is what training saw.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::text::{Kind, Token, looks_mathematical};

/// One sparse, L2-normalized feature vector: (feature index, value), indices ascending.
pub type Sparse = Vec<(u32, f32)>;

const CHAR_MIN: usize = 3;
const CHAR_MAX: usize = 5;
/// A word training never saw is read as a misspelling of one it saw when at least this
/// share of its character n-grams was seen (less is chance overlap: "taxes" shares
/// "tax" and "es" with many words and is still unknown).
const RECOGNIZED: f32 = 0.7;
/// Share of the vector's weight that the word block carries (squared norms add to 1).
const WORD_WEIGHT: f32 = 0.75;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    Word,
    Char,
}

fn fnv(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            h ^= 0xff;
            h = h.wrapping_mul(0x100_0000_01b3);
        }
        for b in *p {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

/// A light stem: a plural `s` goes (`books` → `book`, not `class` or `is`).
fn stem(word: &str) -> &str {
    match word.strip_suffix('s') {
        Some(s) if s.len() > 3 && !s.ends_with('s') && !s.ends_with('u') => s,
        _ => word,
    }
}

/// The feature of one (stemmed) word.
fn word_feature(stemmed: &str) -> u64 {
    fnv(&[b"w", stemmed.as_bytes()])
}

/// Calls `f` with the feature of each character n-gram (3 to 5) of `word`, between spaces:
/// each gram is hashed as a slice of the padded word, nothing copied per gram.
fn char_grams(word: &str, mut f: impl FnMut(u64)) {
    let padded = format!(" {word} ");
    // where each character starts, then the end: a gram of n characters runs from one start
    // to the start n further on
    let starts = || padded.char_indices().map(|(i, _)| i).chain(std::iter::once(padded.len()));
    for n in CHAR_MIN..=CHAR_MAX {
        for (from, to) in starts().zip(starts().skip(n)) {
            f(fnv(&[b"c", &padded.as_bytes()[from..to]]));
        }
    }
}

/// Every feature of a reading (content tokens), hashed, with its block.
fn raw(reading: &[&Token], all: &[Token]) -> Vec<(u64, Block)> {
    let mut out = Vec::with_capacity(reading.len() * 12);
    let words: Vec<&str> = reading
        .iter()
        .map(|t| match t.kind {
            Kind::Number => "<num>",
            _ => stem(&t.text),
        })
        .collect();
    for w in &words {
        out.push((word_feature(w), Block::Word));
    }
    for pair in words.windows(2) {
        out.push((fnv(&[b"b", pair[0].as_bytes(), pair[1].as_bytes()]), Block::Word));
    }
    if looks_mathematical(all) {
        out.push((fnv(&[b"m"]), Block::Word));
    }
    for t in reading.iter().filter(|t| t.kind == Kind::Word && t.text.chars().count() >= 2) {
        char_grams(&t.text, |h| out.push((h, Block::Char)));
    }
    out
}

/// The index's keys are FNV hashes already: hashing them again would only cost time.
#[derive(Debug, Clone, Copy, Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8) ^ u64::from(*b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

type Index = HashMap<u64, (u32, Block), BuildHasherDefault<Prehashed>>;

#[derive(Debug, Clone)]
pub struct Vectorizer {
    index: Index,
    idf: Vec<f32>,
}

impl Vectorizer {
    /// Learns the vocabulary and inverse document frequencies from `docs` (readings).
    pub fn fit(docs: &[(Vec<&Token>, &[Token])]) -> Self {
        let mut index = Index::default();
        let mut df: Vec<u32> = Vec::new();
        for (reading, all) in docs {
            let mut seen: Vec<u64> = raw(reading, all)
                .into_iter()
                .map(|(h, block)| {
                    let next = index.len() as u32;
                    let (i, _) = *index.entry(h).or_insert((next, block));
                    if i as usize == df.len() {
                        df.push(0);
                    }
                    u64::from(i)
                })
                .collect();
            seen.sort_unstable();
            seen.dedup();
            for i in seen {
                df[i as usize] += 1;
            }
        }
        let n = docs.len() as f32;
        let idf = df.iter().map(|&d| ((1.0 + n) / (1.0 + d as f32)).ln() + 1.0).collect();
        Self { index, idf }
    }

    /// Whether training saw this word: as a word, or as most of its character n-grams
    /// (a misspelling of a word it saw).
    pub fn recognizes(&self, token: &Token) -> bool {
        if token.kind != Kind::Word {
            return true;
        }
        if self.index.contains_key(&word_feature(stem(&token.text))) {
            return true;
        }
        let (mut seen, mut all) = (0usize, 0usize);
        char_grams(&token.text, |h| {
            all += 1;
            seen += usize::from(self.index.contains_key(&h));
        });
        all > 0 && seen as f32 >= RECOGNIZED * all as f32
    }

    pub fn dimension(&self) -> usize {
        self.idf.len()
    }

    /// The vector of a reading; features training never saw are left out.
    pub fn transform(&self, reading: &[&Token], all: &[Token]) -> Sparse {
        let mut hits: Vec<(u32, Block)> =
            raw(reading, all).into_iter().filter_map(|(h, _)| self.index.get(&h).copied()).collect();
        hits.sort_unstable_by_key(|(i, _)| *i);
        let mut out: Vec<(u32, f32, Block)> = Vec::with_capacity(hits.len());
        for (i, block) in hits {
            match out.last_mut() {
                Some(last) if last.0 == i => last.1 += 1.0,
                _ => out.push((i, 1.0, block)),
            }
        }
        let mut norms = [0f32; 2];
        for (i, v, block) in out.iter_mut() {
            *v = (1.0 + v.ln()) * self.idf[*i as usize];
            norms[*block as usize] += *v * *v;
        }
        let scale = [WORD_WEIGHT, (1.0 - WORD_WEIGHT * WORD_WEIGHT).sqrt()];
        out.into_iter()
            .map(|(i, v, block)| {
                let b = block as usize;
                (i, if norms[b] > 0.0 { v / norms[b].sqrt() * scale[b] } else { 0.0 })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{reading, tokens};

    #[test]
    fn misspellings_share_character_features() {
        let train = [tokens("library opening hours"), tokens("derivative of a function")];
        let docs: Vec<_> = train.iter().map(|t| (reading(t), t.as_slice())).collect();
        let v = Vectorizer::fit(&docs);
        let dot = |a: &Sparse, b: &Sparse| -> f32 {
            a.iter().map(|(i, x)| b.iter().find(|(j, _)| j == i).map_or(0.0, |(_, y)| x * y)).sum()
        };
        let vec = |q: &str| {
            let t = tokens(q);
            v.transform(&reading(&t), &t)
        };
        let (lib, typo, der) = (vec("library hours"), vec("libary hourz"), vec("derivatve"));
        assert!(dot(&lib, &typo) > 0.2, "{}", dot(&lib, &typo));
        assert!(dot(&der, &typo) < 0.05);
        let norm: f32 = lib.iter().map(|(_, x)| x * x).sum();
        assert!((norm - 1.0).abs() < 1e-4, "{norm}");
        assert!(vec("zzzz qqqq").is_empty());
    }
}

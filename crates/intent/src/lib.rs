//! Question routing by text alone. Knows skills and questions, not agents or protocols.
//!
//! Training takes what each target (a specialist) offers — its skills' names,
//! descriptions, tags and examples — plus examples of what nobody here serves, and
//! yields a [`Model`]: word and character n-gram TF-IDF ([`features`]), a softmax
//! regression over the skills and an explicit out-of-scope class ([`softmax`]), with a
//! temperature fitted by cross-validation. A target's probability is the sum over its
//! skills. [`Model::decide`] adds rules the regression cannot learn from so few
//! examples: nothing routable said → clarify; a request the student marked as the main
//! one is the one read; two parts confidently for different places → clarify; the top
//! two targets too close → clarify; a negated topic is dropped when another remains.
//!
//! With the `embed` feature, `Model::train_embedded` reads sentence embeddings
//! (all-MiniLM-L6-v2, module `embed`) instead of TF-IDF, under the same regression and rules.

pub mod cv;
#[cfg(feature = "embed")]
pub mod embed;
pub mod features;
pub mod softmax;
pub mod text;
mod words;

use features::{Sparse, Vectorizer};
use softmax::{Fit, Softmax};
use text::Token;

/// The label of the out-of-scope class in [`Prediction::probabilities`].
pub const OUT_OF_SCOPE: &str = "out_of_scope";

/// One skill a target offers, with the texts that describe it. An empty `skill`
/// describes the target as a whole: it adds to the target's probability but is never
/// the skill a route names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skill {
    pub target: String,
    pub skill: String,
    /// Name, description, tags and examples: each one a training document.
    pub texts: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Training {
    pub skills: Vec<Skill>,
    /// Questions nobody here serves.
    pub out_of_scope: Vec<String>,
}

/// The decision rules' thresholds.
#[derive(Debug, Clone, Copy)]
pub struct Rules {
    /// Top two targets closer than this (in probability) → ask which.
    pub margin: f32,
    /// A route needs at least this probability for its target, else ask.
    pub min_route: f32,
    /// Each part of a two-topic question needs this to count as a second topic.
    pub part_confidence: f32,
    /// … and this when the part is out of scope (an aside is easily unfamiliar).
    pub part_out_of_scope: f32,
    /// Out of scope, but below this (less likely than not) → ask what is needed rather
    /// than turn the student away.
    pub min_out_of_scope: f32,
}

impl Default for Rules {
    fn default() -> Self {
        Self {
            margin: 0.2,
            min_route: 0.5,
            part_confidence: 0.6,
            part_out_of_scope: 0.85,
            min_out_of_scope: 0.5,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// Nothing routable was said.
    Vague,
    /// The top two targets are too close.
    Close,
    /// The top target is below the route threshold.
    Unsure,
    /// Two parts, each confidently for a different place.
    TwoTopics,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Route {
        target: String,
        skill: String,
    },
    /// Ask: which of `options` (targets), or, when empty, what at all.
    Clarify {
        options: Vec<String>,
        why: Why,
    },
    OutOfScope,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Prediction {
    pub verdict: Verdict,
    /// The model's probability for the label acted on (the route's target, or out of
    /// scope); `None` when a rule decided.
    pub confidence: Option<f32>,
    /// Each target's probability and [`OUT_OF_SCOPE`]'s, for the text that was read.
    pub probabilities: Vec<(String, f32)>,
}

/// What the regression reads a question as.
#[derive(Debug, Clone)]
enum Reader {
    /// The TF-IDF vector of its words.
    Words,
    /// Its sentence embedding (dense, as a sparse vector over every dimension).
    #[cfg(feature = "embed")]
    Embedding(std::sync::Arc<embed::Encoder>),
}

#[derive(Debug, Clone)]
pub struct Model {
    /// Always fitted: it also tells whether a question uses any word training saw.
    vectorizer: Vectorizer,
    reader: Reader,
    softmax: Softmax,
    /// Over targets then out of scope: which place a question belongs to, learned from
    /// every skill of a target together (their shared words count for the target).
    routing: Softmax,
    /// Class k < skills.len() is that skill; the last class is out of scope.
    skills: Vec<(usize, String)>,
    targets: Vec<String>,
    rules: Rules,
}

impl Model {
    pub fn train(training: &Training) -> Model {
        Self::train_with(training, Fit::default(), Rules::default())
    }

    pub fn train_with(training: &Training, fit: Fit, rules: Rules) -> Model {
        let words = |v: &Vectorizer, docs: &[Vec<Token>]| -> Result<Vec<Sparse>, std::convert::Infallible> {
            Ok(docs.iter().map(|t| v.transform(&text::reading(t), t)).collect())
        };
        match Self::build(training, fit, rules, Reader::Words, words) {
            Ok(m) => m,
        }
    }

    /// The same model over sentence embeddings: the same classes, out-of-scope examples
    /// and rules; the regression reads each text's embedding (negated words left out,
    /// as the TF-IDF reading leaves them out).
    #[cfg(feature = "embed")]
    pub fn train_embedded(
        training: &Training,
        encoder: std::sync::Arc<embed::Encoder>,
    ) -> Result<Model, embed::EmbedError> {
        let reader = Reader::Embedding(encoder.clone());
        let embedded = |_: &Vectorizer, docs: &[Vec<Token>]| {
            let said: Vec<String> = docs.iter().map(|t| text::said(t)).collect();
            let said: Vec<&str> = said.iter().map(String::as_str).collect();
            Ok(encoder.embed_cached(&said)?.into_iter().map(dense).collect())
        };
        Self::build(training, Fit::dense(), Rules::default(), reader, embedded)
    }

    fn build<E>(
        training: &Training,
        fit: Fit,
        rules: Rules,
        reader: Reader,
        featurize: impl FnOnce(&Vectorizer, &[Vec<Token>]) -> Result<Vec<Sparse>, E>,
    ) -> Result<Model, E> {
        let mut targets: Vec<String> = Vec::new();
        let mut skills = Vec::new();
        let mut labelled: Vec<(Vec<Token>, usize)> = Vec::new();
        for s in &training.skills {
            let t = match targets.iter().position(|t| *t == s.target) {
                Some(t) => t,
                None => {
                    targets.push(s.target.clone());
                    targets.len() - 1
                }
            };
            skills.push((t, s.skill.clone()));
            labelled.extend(s.texts.iter().map(|x| (text::tokens(x), skills.len() - 1)));
        }
        let oos = skills.len();
        labelled.extend(training.out_of_scope.iter().map(|x| (text::tokens(x), oos)));
        let docs: Vec<(Vec<&Token>, &[Token])> =
            labelled.iter().map(|(t, _)| (text::reading(t), t.as_slice())).collect();
        let vectorizer = Vectorizer::fit(&docs);
        drop(docs);
        let (texts, ys): (Vec<Vec<Token>>, Vec<usize>) = labelled.into_iter().unzip();
        let xs = featurize(&vectorizer, &texts)?;
        let group: Vec<usize> =
            skills.iter().map(|(t, _)| *t).chain(std::iter::once(targets.len())).collect();
        let dimension = match &reader {
            Reader::Words => vectorizer.dimension(),
            #[cfg(feature = "embed")]
            Reader::Embedding(_) => embed::DIMENSION,
        };
        let by_place: Vec<usize> = ys.iter().map(|&y| group[y]).collect();
        let places: Vec<usize> = (0..=targets.len()).collect();
        // two independent fits over the same vectors: side by side
        let (softmax, routing) = std::thread::scope(|s| {
            let skills = s.spawn(|| Softmax::train(&xs, &ys, &group, dimension, fit));
            let routing = Softmax::train(&xs, &by_place, &places, dimension, fit);
            (skills.join().expect("a fit does not panic"), routing)
        });
        Ok(Model { vectorizer, reader, softmax, routing, skills, targets, rules })
    }

    /// Whether the model reads sentence embeddings (else TF-IDF).
    pub fn embedded(&self) -> bool {
        !matches!(self.reader, Reader::Words)
    }

    pub fn targets(&self) -> &[String] {
        &self.targets
    }

    /// Number of skills (classes besides out of scope and target descriptions).
    pub fn skill_count(&self) -> usize {
        self.skills.iter().filter(|(_, s)| !s.is_empty()).count()
    }

    pub fn temperature(&self) -> f32 {
        self.softmax.temperature()
    }

    /// Whether a span uses any word training saw, and the vector the regression reads
    /// (negated topics dropped when another remains).
    fn read(&self, span: &[Token]) -> (bool, Sparse) {
        let reading = text::reading(span);
        let words = self.vectorizer.transform(&reading, span);
        // known: some word that says what is asked was seen in training (as a word, or
        // misspelled); a question of only generic words is known when any word was seen
        let mut topical = reading.iter().filter(|t| t.is_routable() || t.kind != text::Kind::Word).peekable();
        let known = if topical.peek().is_some() {
            topical.any(|t| self.vectorizer.recognizes(t))
        } else {
            !words.is_empty()
        };
        match &self.reader {
            Reader::Words => (known, words),
            // an inference error (none is expected once training encoded every
            // example) leaves no features: the scores fall back to the biases
            #[cfg(feature = "embed")]
            Reader::Embedding(e) => (
                known,
                e.embed(&[&text::said(span)]).ok().and_then(|mut v| v.pop()).map_or_else(Vec::new, dense),
            ),
        }
    }

    /// Per target, then out of scope: the skills' regression's out-of-scope probability
    /// (it is the one cross-validation found to refuse unknown topics without routing
    /// them), the rest shared out by the targets' regression.
    fn by_target(&self, x: &Sparse, classes: &[f32]) -> Vec<f32> {
        let mut p = vec![0f32; self.targets.len() + 1];
        // out of scope as the skills' regression says; what is served split between the
        // targets as the targets' regression says (a paraphrase of one library skill
        // still reads as the library through words its other skills share)
        let n = self.targets.len();
        let served = 1.0 - classes[self.skills.len()];
        let r = self.routing.probabilities(x);
        let total: f32 = r[..n].iter().sum::<f32>().max(1e-9);
        for (t, q) in r[..n].iter().enumerate() {
            p[t] = served * q / total;
        }
        p[n] = 1.0 - served;
        p
    }

    /// The label (target index, or `targets.len()` for out of scope) a span goes to.
    fn label(&self, span: &[Token]) -> (usize, f32) {
        let x = self.read(span).1;
        let p = self.by_target(&x, &self.softmax.probabilities(&x));
        p.iter().copied().enumerate().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap_or((0, 0.0))
    }

    pub fn decide(&self, question: &str) -> Prediction {
        let tokens = text::tokens(question);
        let main = text::main_span(&tokens);
        let span = main.unwrap_or(&tokens);
        let (known, x) = self.read(span);
        let classes = self.softmax.probabilities(&x);
        let p = self.by_target(&x, &classes);
        let probabilities: Vec<(String, f32)> = self
            .targets
            .iter()
            .cloned()
            .chain(std::iter::once(OUT_OF_SCOPE.to_string()))
            .zip(p.iter().copied())
            .collect();
        let rule = |verdict| Prediction { verdict, confidence: None, probabilities: probabilities.clone() };
        if self.targets.is_empty() {
            return Prediction { verdict: Verdict::OutOfScope, confidence: Some(1.0), probabilities };
        }
        if text::vague(span) {
            return rule(Verdict::Clarify { options: vec![], why: Why::Vague });
        }
        if !known {
            // something was said, but nothing any skill or example here ever mentioned
            return rule(Verdict::OutOfScope);
        }
        if main.is_none() {
            let parts = text::parts(&tokens);
            if parts.len() >= 2 {
                let oos = self.targets.len();
                // a part that only mentions what is not wanted asks nothing
                let labels: Vec<(usize, f32)> = parts
                    .iter()
                    .filter(|p| p.iter().any(|t| t.is_routable() && !t.negated))
                    .map(|p| self.label(p))
                    .collect();
                let needed = |l: usize| {
                    if l == oos { self.rules.part_out_of_scope } else { self.rules.part_confidence }
                };
                let mut sure: Vec<usize> =
                    labels.iter().filter(|(l, c)| *c >= needed(*l)).map(|(l, _)| *l).collect();
                sure.sort_unstable();
                sure.dedup();
                if sure.len() >= 2 && sure.iter().any(|l| *l != oos) {
                    let options =
                        sure.iter().filter(|l| **l != oos).map(|l| self.targets[*l].clone()).collect();
                    return rule(Verdict::Clarify { options, why: Why::TwoTopics });
                }
            }
        }
        let oos = self.targets.len();
        let mut order: Vec<usize> = (0..=oos).collect();
        order.sort_by(|a, b| p[*b].total_cmp(&p[*a]));
        let top = order[0];
        if top == oos {
            if p[oos] < self.rules.min_out_of_scope {
                return rule(Verdict::Clarify { options: vec![], why: Why::Unsure });
            }
            return Prediction { verdict: Verdict::OutOfScope, confidence: Some(p[oos]), probabilities };
        }
        let second = order.iter().copied().find(|&l| l != top && l != oos);
        if let Some(s) = second
            && p[top] - p[s] < self.rules.margin
        {
            let options = vec![self.targets[top].clone(), self.targets[s].clone()];
            return rule(Verdict::Clarify { options, why: Why::Close });
        }
        if p[top] < self.rules.min_route {
            return rule(Verdict::Clarify { options: vec![self.targets[top].clone()], why: Why::Unsure });
        }
        let skill = self
            .skills
            .iter()
            .enumerate()
            .filter(|(_, (t, s))| *t == top && !s.is_empty())
            .max_by(|a, b| classes[a.0].total_cmp(&classes[b.0]))
            .map(|(_, (_, s))| s.clone())
            .unwrap_or_default();
        Prediction {
            verdict: Verdict::Route { target: self.targets[top].clone(), skill },
            confidence: Some(p[top]),
            probabilities,
        }
    }
}

/// A dense vector as the regression's sparse input.
#[cfg(feature = "embed")]
fn dense(v: Vec<f32>) -> Sparse {
    v.into_iter().enumerate().map(|(i, x)| (i as u32, x)).collect()
}

#[cfg(test)]
mod tests;

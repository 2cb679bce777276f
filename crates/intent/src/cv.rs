//! Cross-validation of the whole router (regression and rules) on its own training
//! texts: the honest internal measure, since no evaluation set is read. Only sentences
//! are held out (texts of at least [`MIN_WORDS`] words: examples, descriptions), never
//! names or tags, and each is scored by a model trained without it.

use crate::softmax::Fit;
use crate::{Model, Rules, Skill, Training, Verdict};

/// A text with fewer words (a name, a tag) always stays in training.
pub const MIN_WORDS: usize = 4;

/// Held-out decisions: `correct` routed to their own target (or refused when out of
/// scope), `wrong_routes` dispatched somewhere they do not belong, the rest clarified
/// or refused though served.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Score {
    pub n: usize,
    pub correct: usize,
    pub wrong_routes: usize,
}

impl Score {
    pub fn accuracy(&self) -> f64 {
        if self.n == 0 { 0.0 } else { self.correct as f64 / self.n as f64 }
    }

    fn add(&mut self, expected: Option<&str>, got: &Verdict) {
        self.n += 1;
        match (expected, got) {
            (Some(e), Verdict::Route { target, .. }) if e == target => self.correct += 1,
            (None, Verdict::OutOfScope) => self.correct += 1,
            (_, Verdict::Route { .. }) => self.wrong_routes += 1,
            _ => {}
        }
    }
}

/// Where a held-out text sits: `(skill index, text index)`, or out of scope.
#[derive(Debug, Clone, Copy)]
enum Slot {
    Skill(usize, usize),
    OutOfScope(usize),
}

fn sentence(text: &str) -> bool {
    text.split_whitespace().count() >= MIN_WORDS
}

/// `training` without the held-out `slots`.
fn without(training: &Training, slots: &[Slot]) -> Training {
    let mut t = training.clone();
    let mut drop_skill: Vec<(usize, usize)> = Vec::new();
    let mut drop_oos: Vec<usize> = Vec::new();
    for s in slots {
        match *s {
            Slot::Skill(k, i) => drop_skill.push((k, i)),
            Slot::OutOfScope(i) => drop_oos.push(i),
        }
    }
    for (k, skill) in t.skills.iter_mut().enumerate() {
        let mut i = 0;
        skill.texts.retain(|_| {
            i += 1;
            !drop_skill.contains(&(k, i - 1))
        });
    }
    let mut i = 0;
    t.out_of_scope.retain(|_| {
        i += 1;
        !drop_oos.contains(&(i - 1))
    });
    t
}

/// `folds`-fold cross-validation over every sentence of `training` (fold = position
/// mod `folds` within its skill or the out-of-scope list, so every class is in every
/// fold), each fold's model trained with `fit` and deciding with `rules`.
pub fn cross_validate(training: &Training, fit: Fit, rules: Rules, folds: usize) -> Score {
    let folds = folds.max(2);
    let mut slots: Vec<(Slot, usize)> = Vec::new();
    for (k, s) in training.skills.iter().enumerate() {
        let held = s.texts.iter().enumerate().filter(|(_, t)| sentence(t));
        slots.extend(held.enumerate().map(|(n, (i, _))| (Slot::Skill(k, i), n % folds)));
    }
    let held = training.out_of_scope.iter().enumerate().filter(|(_, t)| sentence(t));
    slots.extend(held.enumerate().map(|(n, (i, _))| (Slot::OutOfScope(i), n % folds)));
    let mut score = Score::default();
    for f in 0..folds {
        let out: Vec<Slot> = slots.iter().filter(|(_, g)| *g == f).map(|(s, _)| *s).collect();
        if out.is_empty() {
            continue;
        }
        let model = Model::train_with(&without(training, &out), fit, rules);
        for s in out {
            let (expected, text) = match s {
                Slot::Skill(k, i) => (Some(training.skills[k].target.as_str()), &training.skills[k].texts[i]),
                Slot::OutOfScope(i) => (None, &training.out_of_scope[i]),
            };
            score.add(expected, &model.decide(text).verdict);
        }
    }
    score
}

/// Each skill of a target with several skills held out whole (every text of it, names
/// and tags too): do its sentences still reach their target, on the strength of the
/// target's other skills and the words they share? The measure of a new topic's reach.
pub fn leave_skill_out(training: &Training, fit: Fit, rules: Rules) -> Score {
    let mut score = Score::default();
    for (k, s) in training.skills.iter().enumerate() {
        let siblings = training.skills.iter().filter(|o| o.target == s.target && !o.skill.is_empty()).count();
        if siblings < 2 || s.skill.is_empty() {
            continue;
        }
        let rest: Vec<Skill> =
            training.skills.iter().enumerate().filter(|(j, _)| *j != k).map(|(_, o)| o.clone()).collect();
        let model = Model::train_with(
            &Training { skills: rest, out_of_scope: training.out_of_scope.clone() },
            fit,
            rules,
        );
        for text in s.texts.iter().filter(|t| sentence(t)) {
            score.add(Some(&s.target), &model.decide(text).verdict);
        }
    }
    score
}

//! Marketing 101 through the Hub: the Professor answers from its course pack — the topics
//! a question names, the course's own facts, a lesson by its title — in five languages
//! and with typos; a bare follow-up stays with it; what the pack does not cover gets the
//! honest reply, never the nearest topic.

use super::By::Professor;
use super::{Row, row};

const NOT_IN_PACK: &str = "That isn't in the Marketing 101 course pack";
const LABEL: &str = "Offline Professor (no model)";

pub(super) const ROWS: &[Row] = &[
    row(
        "prof-1",
        "what is market segmentation?",
        Professor,
        &[LABEL, "Segmentation divides a broad market"],
        &["Targeting:", NOT_IN_PACK],
    ),
    row(
        "prof-2",
        "In marketing, what is the difference between segmentation and targeting?",
        Professor,
        &["Segmentation divides", "Targeting is choosing", "come in that order"],
        &["Branding:", "Pricing strategies:"],
    ),
    row(
        "prof-3",
        "what are the 4 Ps of marketing?",
        Professor,
        &["Product (what is offered", "Promotion (how they hear"],
        &["Targeting:"],
    ),
    row(
        "prof-4",
        "marketting mix explaned simply pls",
        Professor,
        &["The marketing mix is the set of decisions"],
        &[NOT_IN_PACK],
    ),
    row(
        "prof-5",
        "¿Qué es el posicionamiento en marketing?",
        Professor,
        &["Positioning is the place"],
        &["Pricing strategies:"],
    ),
    row(
        "prof-6",
        "Was ist Marktforschung im Marketing?",
        Professor,
        &["Market research gathers information"],
        &["Branding:"],
    ),
    row(
        "prof-7",
        "c'est quoi la segmentation du marché en marketing ?",
        Professor,
        &["Segmentation divides"],
        &["Targeting:"],
    ),
    row(
        "prof-8",
        "brand loyalty kya hota hai, ek example do please",
        Professor,
        &["A brand is more than a name", "Two bottles of the same water"],
        &[NOT_IN_PACK],
    ),
    row(
        "prof-9",
        "penetration pricing vs price skimming, which fits a new energy drink",
        Professor,
        &["penetration pricing starts low"],
        &["Branding:"],
    ),
    row(
        "prof-10",
        "when are the marketing 101 office hours?",
        Professor,
        &["Tuesdays and Thursdays, 14:00–15:00"],
        &["Grading:", "Segmentation"],
    ),
    row(
        "prof-11",
        "how is marketing 101 graded?",
        Professor,
        &["participation 10%", "the final project 40%"],
        &["Office hours:"],
    ),
    row(
        "prof-12",
        "can I hand in my marketing 101 case study late?",
        Professor,
        &["10% off for each day late", "Only the professor can grant an extension"],
        &[],
    ),
    row(
        "prof-13",
        "what was the marketing lesson 'what a price says' about?",
        Professor,
        &["From the lesson “What a price says”", "A price is a message as well as a number"],
        &["Branding:"],
    ),
    row("prof-14", "what is branding in marketing?", Professor, &["A brand is more than a name"], &[]),
    row(
        "prof-14",
        "another example please",
        Professor,
        &["The course pack has one example of this", "Two bottles"],
        &["isn't something", "chain rule"],
    ),
    row(
        "prof-15",
        "help with the SWOT part of my marketing assigment",
        Professor,
        &[NOT_IN_PACK, "send the professor a message"],
        &["Segmentation divides", "Branding:"],
    ),
];

//! The Marketing 101 course pack, in Campus's own words: eight topics with an explanation
//! and one worked example each, the facts about the course itself, and the three lessons
//! the Professor has posted from the start. Everything here is fictional demo content.
//! No calendar date appears anywhere in it: the live Professor may state a date only when
//! the lesson or the question gives it, and the pack gives none.

/// The course's name, as students read it.
pub const COURSE_NAME: &str = "Marketing 101";
/// Who teaches it (fictional).
pub const PROFESSOR_NAME: &str = "Prof. Dana Whitlock";

/// A topic of the course: what it is called, the words that name it (folded: lower case,
/// no accents), what it is, and one worked example.
#[derive(Debug)]
pub struct Topic {
    pub id: &'static str,
    /// The skill that explains it ([`crate::TOPICS_SKILL`] or [`crate::MIX_SKILL`]).
    pub skill: &'static str,
    pub name: &'static str,
    /// Phrases that name the topic, in English, Spanish, French, German and
    /// Hindi/Hinglish, folded as [`forms::read::fold`] folds a word.
    pub names: &'static [&'static str],
    pub explanation: &'static str,
    pub example: &'static str,
}

/// The eight topics, in the syllabus's order.
pub const TOPICS: [Topic; 8] = [
    Topic {
        id: "marketing-mix",
        skill: crate::MIX_SKILL,
        name: "The marketing mix (the 4 Ps)",
        names: &[
            "marketing mix",
            "4 ps",
            "4ps",
            "4 p",
            "4p",
            "four ps",
            "four p's",
            "4 p's",
            "product price place promotion",
            "mezcla de marketing",
            "mix de marketing",
            "marketing-mix",
            "mix marketing",
            "les 4 p",
            "les quatre p",
            "promotion",
            "promocion",
        ],
        explanation: "The marketing mix is the set of decisions a business controls when it takes an offer to market, \
usually grouped as the 4 Ps: Product (what is offered, its features and quality), Price (what customers pay and how), \
Place (where and how they can get it) and Promotion (how they hear about it and are persuaded to try it). The four have \
to fit each other and the customers chosen: a premium product sold at a bargain price in a cluttered shop sends mixed signals.",
        example: "A coffee cart on campus. Product: fair-trade coffee and two kinds of pastry. Price: a little below the café \
across the quad, with a stamp card for regulars. Place: outside the science building in the morning, when lectures start. \
Promotion: a chalkboard sign and posts on the student union's channel.",
    },
    Topic {
        id: "segmentation",
        skill: crate::TOPICS_SKILL,
        name: "Market segmentation",
        names: &[
            "segmentation",
            "segmentations",
            "segment",
            "segments",
            "segmenting",
            "segmentacion",
            "segmentar",
            "segmentierung",
            "marktsegmentierung",
            "marktsegment",
            "segmentation du marche",
        ],
        explanation: "Segmentation divides a broad market into groups of people who share needs and respond to an offer \
in a similar way. Common bases are demographic (age, income), geographic (where people live), psychographic (values, \
lifestyle) and behavioural (how often and why they buy). A useful segment can be measured, is large enough to be worth \
serving, can be reached, and wants something different from the other segments.",
        example: "A bike maker splits its market into commuters who want reliability and a rack, weekend sport riders who \
care about weight and speed, and families who want safety and a child seat: one product category, three segments with \
different needs.",
    },
    Topic {
        id: "targeting",
        skill: crate::TOPICS_SKILL,
        name: "Targeting",
        names: &[
            "targeting",
            "targetting",
            "target market",
            "target markets",
            "target segment",
            "target audience",
            "target group",
            "mercado meta",
            "mercado objetivo",
            "publico objetivo",
            "zielgruppe",
            "zielmarkt",
            "marche cible",
            "ciblage",
            "cible",
        ],
        explanation: "Targeting is choosing which segments to serve once segmentation has mapped them. A business compares \
the segments on size and growth, on how strong the competition in each is, and on whether it has the skills and money to \
serve them well; then it serves one segment (concentrated), several with an offer each (differentiated), or the whole \
market with one offer (undifferentiated).",
        example: "The bike maker serves commuters first: they are the largest segment in its city, rivals mostly sell sport \
bikes, and its sturdy frames already suit daily riding. Families may come later, with a second model.",
    },
    Topic {
        id: "positioning",
        skill: crate::TOPICS_SKILL,
        name: "Positioning",
        names: &[
            "positioning",
            "positioning statement",
            "positioning map",
            "perceptual map",
            "posicionamiento",
            "positionierung",
            "positionnement",
        ],
        explanation: "Positioning is the place an offer aims to hold in its target customers' minds, compared with the \
alternatives they consider. It is often written as a positioning statement (for [target], [brand] is the [category] \
that [main benefit], because [reason to believe]) and checked on a perceptual map, which plots the brands on the two \
attributes customers care about most.",
        example: "For city commuters, the bike maker's model is the commuter bike that never leaves you stranded, because \
it has a sealed chain and free repairs for its first two years. On a map of price against reliability it sits at a middle \
price and high reliability, a corner no rival holds.",
    },
    Topic {
        id: "branding",
        skill: crate::TOPICS_SKILL,
        name: "Branding",
        names: &[
            "brand",
            "brands",
            "branding",
            "brand equity",
            "brand loyalty",
            "brand awareness",
            "brand identity",
            "marca",
            "marcas",
            "marke",
            "marken",
            "markenbildung",
            "marque",
            "image de marque",
        ],
        explanation: "A brand is more than a name or a logo: it is what people expect of an offer, what it promises, how \
it behaves and how it makes them feel. Brand equity is the value those expectations add: people pay more for, try first \
and forgive more easily a brand they know and trust. Awareness (do people recognise it?) comes before loyalty (do they \
choose it again?).",
        example: "Two bottles of the same water stand on a shelf. One carries a name students know from sports events and \
costs more; many still pick it, because the name stands for a promise (clean, safe, for active people) that the plain \
bottle does not make.",
    },
    Topic {
        id: "pricing",
        skill: crate::MIX_SKILL,
        name: "Pricing strategies",
        names: &[
            "price",
            "prices",
            "pricing",
            "pricing strategy",
            "price skimming",
            "skimming",
            "penetration pricing",
            "psychological pricing",
            "cost-plus",
            "cost plus",
            "value-based pricing",
            "precio",
            "precios",
            "fijacion de precios",
            "preis",
            "preise",
            "preisstrategie",
            "preisgestaltung",
            "prix",
            "tarification",
            "keemat",
            "kimat",
        ],
        explanation: "A price has to cover costs, fit what customers believe the offer is worth, and stand up to \
competitors' prices. Cost-plus pricing adds a margin to the cost; value-based pricing starts from what the target \
customer would pay; penetration pricing starts low to win customers quickly; skimming starts high for eager early buyers \
and comes down later; psychological pricing uses cues such as 9.99 instead of 10.",
        example: "A new energy drink enters a crowded market with penetration pricing, cheaper than the leaders for its \
first months, so that students try it. A new games console does the opposite: a high launch price that fans pay, lowered \
a year later to reach everyone else.",
    },
    Topic {
        id: "market-research",
        skill: crate::TOPICS_SKILL,
        name: "Market research",
        names: &[
            "market research",
            "marketing research",
            "primary research",
            "secondary research",
            "focus group",
            "focus groups",
            "survey",
            "surveys",
            "investigacion de mercados",
            "investigacion de mercado",
            "estudio de mercado",
            "marktforschung",
            "etude de marche",
            "etudes de marche",
        ],
        explanation: "Market research gathers information so that a marketing decision rests on less guesswork. Secondary \
research reuses data that already exists (industry reports, public statistics, a company's own sales); primary research \
collects new data for the question at hand, through surveys, interviews, focus groups, observation or experiments. Start \
from the decision to be made, then choose the cheapest method whose answer could change it.",
        example: "Before opening late on weekdays, a campus bookshop reads its own till records (secondary) to see when \
sales drop off, then asks two questions at the door for a week (primary): would you come in after 8 pm, and for what?",
    },
    Topic {
        id: "consumer-behaviour",
        skill: crate::TOPICS_SKILL,
        name: "Consumer behaviour",
        names: &[
            "consumer behaviour",
            "consumer behavior",
            "buyer behaviour",
            "buyer behavior",
            "buying decision",
            "purchase decision",
            "purchase decisions",
            "decision process",
            "comportamiento del consumidor",
            "konsumentenverhalten",
            "kaufverhalten",
            "comportement du consommateur",
        ],
        explanation: "Consumer behaviour is how people choose, buy and use what they buy. A common model has five steps: \
noticing a need, looking for information, comparing the alternatives, the purchase itself, and how they feel afterwards. \
Each step is shaped by personal factors (age, budget), psychological ones (motivation, what people notice and remember) \
and social ones (friends, family, the groups they belong to).",
        example: "A student's laptop breaks before an exam (a need). They read reviews and ask friends (information), \
compare three models on price and battery life (alternatives), buy one with a student discount (purchase), and then tell \
classmates whether it lived up to the reviews (afterwards).",
    },
];

/// Said when a question names two or more of segmentation, targeting and positioning.
pub const STP: &str = "Segmentation, targeting and positioning come in that order: segmentation maps the groups in a \
market, targeting chooses which of them to serve, and positioning decides how the offer should be seen by the chosen ones.";

/// A fact about the course itself, with the folded words that ask for it.
#[derive(Debug)]
pub struct CourseFact {
    pub id: &'static str,
    /// Words that ask for it wherever they stand.
    pub asks: &'static [&'static str],
    /// Words that ask for it only in a question about the course ("when is the quiz?"),
    /// not beside a topic ("I have a quiz on branding, what is brand equity?").
    pub weak: &'static [&'static str],
    pub text: &'static str,
}

/// The facts of the course skill: what the syllabus covers, office hours, grading,
/// late work, quizzes, the case study, how to reach the professor and who that is.
pub const COURSE: [CourseFact; 8] = [
    CourseFact {
        id: "syllabus",
        asks: &[
            "syllabus",
            "syllabi",
            "curriculum",
            "what will we cover",
            "what does the course cover",
            "what topics",
            "which topics",
            "what units",
            "which units",
            "course about",
            "temario",
            "programa del curso",
            "lehrplan",
            "programme du cours",
        ],
        weak: &["units", "unit", "topics"],
        text: "Syllabus: eight units in this order: the marketing mix, segmentation, targeting, positioning, branding, \
pricing, market research and consumer behaviour.",
    },
    CourseFact {
        id: "office-hours",
        asks: &[
            "office hours",
            "office hour",
            "meet the professor",
            "see the professor",
            "horario de atencion",
            "horas de oficina",
            "tutorias",
            "sprechstunde",
            "sprechstunden",
            "heures de bureau",
            "permanence",
        ],
        weak: &[],
        text: "Office hours: Tuesdays and Thursdays, 14:00–15:00 Pacific Time, in room 214 of the Harlow Building \
(fictional), or send the professor a message through Campus.",
    },
    CourseFact {
        id: "grading",
        asks: &[
            "grade",
            "grades",
            "grading",
            "graded",
            "marks",
            "marking",
            "calificacion",
            "calificaciones",
            "bewertung",
            "benotung",
            "notation",
        ],
        weak: &["weight", "weighted", "percent", "percentage", "nota", "notas", "noten", "evaluation"],
        text: "Grading: participation 10%, two quizzes 20% together, the case study 30% and the final project 40%.",
    },
    CourseFact {
        id: "late-work",
        asks: &[
            "late",
            "deadline",
            "deadlines",
            "extension",
            "penalty",
            "overdue",
            "retraso",
            "prorroga",
            "verspatet",
            "verspatung",
            "fristverlangerung",
            "retard",
        ],
        weak: &["tarde"],
        text: "Late work: 10% off for each day late, for up to three days; after that it is not accepted. Only the \
professor can grant an extension.",
    },
    CourseFact {
        id: "quizzes",
        asks: &["open-book", "open book"],
        weak: &[
            "quiz", "quizzes", "test", "tests", "exam", "exams", "examen", "prufung", "klausur", "controle",
        ],
        text: "Quizzes: two, open-book, 20 minutes each, at the start of a lecture; the professor announces each one a \
week ahead in a lesson.",
    },
    CourseFact {
        id: "case-study",
        asks: &["case study", "final project", "estudio de caso", "fallstudie", "etude de cas"],
        weak: &[
            "project",
            "assignment",
            "homework",
            "proyecto",
            "tarea",
            "projekt",
            "hausaufgabe",
            "projet",
            "devoir",
        ],
        text: "The case study and the final project: a marketing plan for a real local business, in groups of up to \
four; each brief and its due date arrive as a lesson from the professor.",
    },
    CourseFact {
        id: "contact",
        asks: &[
            "reach the professor",
            "message the professor",
            "talk to the professor",
            "contact the professor",
            "email the professor",
        ],
        weak: &["contact", "email"],
        text: "Contact: send the professor a message through Campus; the course assistant answers routine questions \
for the professor, and passes on what only the professor can decide.",
    },
    CourseFact {
        id: "professor",
        asks: &[
            "who teaches",
            "who is the professor",
            "instructor",
            "lecturer",
            "quien ensena",
            "wer unterrichtet",
            "qui enseigne",
        ],
        weak: &[],
        text: "Marketing 101 is taught by Prof. Dana Whitlock (fictional).",
    },
];

/// A lesson the Professor posted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lesson {
    pub id: String,
    pub revision: u32,
    pub title: String,
    /// The topic it belongs to, when it belongs to one.
    pub topic: Option<String>,
    pub text: String,
}

/// The three lessons posted from the start.
pub fn seeded_lessons() -> Vec<Lesson> {
    let lesson = |id: &str, title: &str, topic: &str, text: &str| Lesson {
        id: id.into(),
        revision: 1,
        title: title.into(),
        topic: Some(topic.into()),
        text: text.into(),
    };
    vec![
        lesson(
            "lesson-one-product",
            "One product, different needs",
            "segmentation",
            "Think of one product: a backpack. A first-year student wants it cheap and roomy, a cyclist wants it \
waterproof and light, a photographer wants padded sections. Same product, three sets of needs. Pick something you own \
and write down three groups of people who would want it for different reasons. That list is your first segmentation; \
the targeting unit builds on it.",
        ),
        lesson(
            "lesson-price-says",
            "What a price says",
            "pricing",
            "A price is a message as well as a number. A high price can say premium; a price ending in .99 says a deal; \
a free trial says try us, no risk. Before the pricing unit, find two prices near campus that seem to send a message, and \
note what each one says to you.",
        ),
        lesson(
            "lesson-positioning-map",
            "Reading a positioning map",
            "positioning",
            "A positioning map plots brands on the two attributes customers care about most; for coffee near campus, \
perhaps price and how fast you are served. Draw the axes, place every coffee option you know, and look for an empty \
corner. An empty corner is either an opportunity or a sign that nobody wants that combination; market research tells \
you which.",
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pack states no calendar date: what the live check allows comes from the
    /// lesson and the question only.
    #[test]
    fn the_pack_names_no_calendar_date() {
        let today = jiff::civil::date(2026, 12, 4);
        let calendar = |t: &str| forms::read::dates_named(t, today, forms::read::DateWords::Calendar);
        for t in &TOPICS {
            assert!(calendar(t.explanation).is_empty(), "{}", t.id);
            assert!(calendar(t.example).is_empty(), "{}", t.id);
        }
        for f in &COURSE {
            assert!(calendar(f.text).is_empty(), "{}", f.id);
        }
        for l in seeded_lessons() {
            assert!(calendar(&l.text).is_empty(), "{}", l.id);
        }
    }

    /// Every name is folded (what the reader compares with), and no two topics share one.
    #[test]
    fn names_are_folded_and_distinct() {
        let mut seen = std::collections::HashSet::new();
        for t in &TOPICS {
            for n in t.names {
                let folded: Vec<String> = n.split(' ').map(forms::read::fold).collect();
                assert_eq!(folded.join(" "), *n, "{} is not folded", n);
                assert!(seen.insert(*n), "{n} names two topics");
            }
        }
        for f in &COURSE {
            for a in f.asks.iter().chain(f.weak) {
                assert_eq!(forms::read::fold(a), *a, "{a} is not folded");
            }
        }
        assert_eq!(TOPICS.len(), 8);
        assert_eq!(seeded_lessons().len(), 3);
    }
}

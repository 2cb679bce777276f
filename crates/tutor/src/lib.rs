//! The Tutor agent. With no tutoring skill enabled it declines; otherwise its
//! [`Mode`] (`TUTOR_MODE`) decides who answers:
//! - `mock` (the default): the offline tutor ([`MockTutor`]), a course pack of
//!   explanations with worked examples plus derivatives and integrals computed with
//!   their steps by the `calculus` crate, every result checked numerically first, every
//!   answer labelled [`LABEL`];
//! - `fixed`: the Part 1 reply, [`FIXED_REPLY`] (the benchmark measures plumbing with it).
//!
//! - `live`: a model through the `llm` seam, bounded by the scope layers ([`live`]).
//!
//! Served by [`specialist::serve`]:
//! A2A endpoint, settings API, telemetry feed and Hub link.

mod answer;
mod card;
mod compute;
mod course;
mod define;
mod examples;
mod executor;
mod followup;
pub mod form;
mod leibniz;
mod limits;
pub mod live;
mod mock;
mod mode;
mod ordinal;
mod phrase;
mod reasons;
mod request;
mod scope;
mod why;
mod words;

use skills::{Rules, Skill, SkillSet};

pub use card::agent_card;
pub use executor::{Answerer, DECLINE_REPLY, FIXED_REPLY, Tutor};
pub use live::{LiveConfig, LiveTutor};
pub use mock::{Answer, LABEL, MEMORY_CAPACITY, MockTutor};
pub use mode::Mode;

/// The Tutor's port unless `PORT` says otherwise.
pub const DEFAULT_PORT: u16 = 41241;
/// Registry identity.
pub const IDENTITY: &str = vocab::agents::TUTOR;

/// The Tutor's built-in skills (revision 1).
pub fn default_skills() -> SkillSet {
    SkillSet {
        skills: vec![
            Skill {
                id: "calculus-tutoring".into(),
                name: "Calculus tutoring".into(),
                description: "Explains calculus concepts and works through problems step by step.".into(),
                tags: [
                    "calculus",
                    "derivative",
                    "integral",
                    "limit",
                    "differentiate",
                    "antiderivative",
                    "integrate",
                    // "d/dx", "dy/dx" and "∫ x dx" all contain the word dx
                    "dx",
                    "chain rule",
                    "product rule",
                    "quotient rule",
                    "power rule",
                    "substitution",
                    "optimisation",
                    "optimization",
                    "fundamental theorem",
                    "implicit",
                    "differentiation",
                ]
                .map(String::from)
                .to_vec(),
                examples: [
                    "how do I find the derivative of x^2 sin(x)? product rule keeps tripping me up",
                    "lim as x→0 of sin(x)/x = 1 but WHY",
                    "can u explain the chain rule like im 5",
                    "∫ x e^x dx — is this integration by parts or substitution?",
                    "d/dx ln(x^2+1), I got 2x/(x^2+1), is that right?",
                    "diffrence between definite and indefinite integrals?",
                    "implicit differentiation on x^2 + y^2 = 25, find dy/dx",
                    "does Σ 1/n^2 converge and how would I prove it on a test",
                    "first four terms of the Maclaurin series for e^x?",
                    "200 m of fencing, one side runs along a river and needs no fence, what dimensions give the max area",
                    "keep messing up u-sub on ∫ 2x cos(x^2) dx, what shoud u be",
                    "why is e^x its own derivative? feels like magic",
                    "what does it actually mean for f to be continuous at x = a",
                    "area between y = x^2 and y = x from 0 to 1, do I do top minus bottom?",
                    "rotate y = sqrt(x) around the x-axis from 0 to 4, disk or shell method?",
                    "ratio test vs root test, how do u decide wich one",
                    "solve dy/dx = 3y with y(0) = 2",
                    "FTC part 1 vs part 2?? I'm so lost",
                    "midterm friday on limits and derivatives, can you give me some practice problems and walk me through them",
                    "check my answer: d/dx tan(x) = sec^2(x)?",
                    "can I use L'Hôpital on (e^x − 1)/x as x→0?",
                    "sketch f(x) = x^3 − 3x: critical points, where it's concave up/down, inflection pts",
                    "partial fractions on ∫ 1/(x^2 − 1) dx, where do A and B come from",
                    "limit of (3x^2 + 1)/(x^2 − 5) as x goes to infinity",
                    "why is ∫ 1/x dx = ln|x| + C and not just ln x",
                    "was in the library working through my problem set and got stuck on the derivative of e^(3x)·sin(2x)",
                    "how do i diferentiate sqrt(x^2+3)",
                    "integrl of sec(x)?? how does anyone come up with that trick",
                    "cant get the limt of (x^2-4)/(x-2) as x aproaches 2, i keep getting 0/0",
                    "wats an inflection point exactly",
                    "mean value theorem explenation pls, my profesor went way too fast",
                    "no entiendo la regla de la cadena, can you show me with sin(3x)?",
                    "oye, cómo saco la derivada de ln(cos x)?",
                    "¿Cómo se calcula la integral definida de x^2 entre 0 y 3?",
                    "ayuda con limites laterales porfa, tengo examen manana y no entiendo nada",
                    "bhai integration by parts samajh nahi aa raha, ∫ x ln x dx kaise karein?",
                    "yaar Σ 1/n diverge kyun karta hai, mujhe laga converge hoga",
                    "x^x ka derivative kaise nikalte hai? log lene wala trick?",
                    "paano i-solve yung related rates na balloon, yung radius lumalaki ng 2 cm/s",
                    "pa-explain naman ng concavity, nalilito ako sa second derivative test",
                    "di ko gets yung epsilon-delta definition of a limit, help po",
                    "em không hiểu đạo hàm của hàm hợp, giải thích giúp em với",
                    "tich phan tung phan la gi vay, vd ∫ x e^x dx lam sao",
                    "lim x→∞ (1 + 1/x)^x bằng e hả? sao vậy?",
                    "printed my calc worksheet at the library but can't do #4: tangent line to y = x^3 at x = 1",
                    "the book I borrowed explains Riemann sums terribly, can you do a left sum with 4 rectangles for x^2 on [0,2]",
                    "V(t) = 100 − 4t^2 liters, how fast is the tank draining at t = 3?",
                    "h(t) = −16t^2 + 64t, when does it hit max height? it's for calc 1, not physics",
                    "is every differentiable function continuous? does it go the other way too",
                    "radius of convergence of a power series — what is it intuitively?",
                    "Good evening. Could you walk me step by step through the quotient rule for (x^2 + 1)/(x − 3)? Thank you.",
                    "freaking out, final is tomorrow and trig substitution for ∫ sqrt(1 − x^2) dx still makes zero sense",
                    "Newton's method to approximate sqrt(2), how many iterations until it's accurate",
                    "How fast is the water level going up at the exact moment the tank is half full?",
                    "A ladder is sliding down a wall — how do I figure out how quickly the top drops when the bottom is 3 m out?",
                    "What's the biggest area I can fence off with 200 m of fencing if one side runs along a river?",
                    "How do I get the slope of the curve y = x^3 - 2x right at x = 1?",
                    "I need the area trapped between y = x^2 and y = 2x and I have no idea where to begin",
                    "What does it mean when a graph has a hole at a point but the function still 'approaches' a value there?",
                    "my prof keeps saying 'rate of change at an instant' — how is that different from average speed between two points?",
                    "How do you find where a curve stops going up and starts going down?",
                    "If I spin the region under sqrt(x) from 0 to 4 around the x-axis, how do I get the volume of that shape?",
                    "Does 1 + 1/2 + 1/3 + 1/4 + ... keep growing forever or settle on some number?",
                    "how do i approximate e^x near zero with a polynomial, like just the first few terms?",
                    "Can someone walk me through undoing the chain rule, like when there's a 2x sitting next to (x^2+1)^5?",
                    "Balloon radius grows at 2 cm/s, how fast is the volume growing when r = 10? I set it up but get stuck.",
                    "Quiz on Friday about the product and quotient rules and I keep mixing up which is which, can you go through a few with me?",
                    "Cheapest can design: what radius and height use the least metal to hold 500 ml?",
                    "Population grows in proportion to its size — how do I solve dy/dt = ky step by step?",
                    "What happens to (sin x)/x as x gets super close to zero, and why isn't it just 0/0?",
                    "how do i find the slope of x^2 + y^2 = 25 at (3,4) when y isn't by itself",
                    "Tenemos examen mañana y no entiendo cómo sacar la pendiente de la recta tangente en un punto, ¿me lo explicas paso a paso?",
                    "Bhai mujhe samajh nahi aa raha ki area under a curve kaise nikalte hain jab function negative ho jata hai",
                    "Paano ko makukuha yung maximum profit kung P(x) = -2x^2 + 40x - 100? Kailangan ba i-set sa zero yung slope?",
                    "Em không hiểu vì sao đặt u = x^2 + 1 thì bài lại dễ hơn, anh chị giải thích step by step giúp em được không?",
                    "whats the fastest way to get the hieght of a ball at its highest point if h(t) = -5t^2 + 20t, do i set the slope to zero?",
                    "confused abt why the area under a speed vs time graph gives distance travled, is that the fundemental theorem thing?",
                    "Oye, ¿cómo sé si una función es continua en x = 2? My teacher says check three things pero no me acuerdo cuáles",
                ]
                .map(String::from)
                .to_vec(),
                enabled: true,
                allowed_scope: [
                    "limits",
                    "derivatives",
                    "integrals",
                    "calculus exercises",
                    "algebra steps inside a calculus explanation",
                ]
                .map(String::from)
                .to_vec(),
                excluded: ["standalone physics", "non-calculus math", "home repair", "library services"]
                    .map(String::from)
                    .to_vec(),
                answer_content: String::new(),
            },
            tutoring_request_skill(),
        ],
    }
}

/// The tutoring-request workflow as a skill: disabled, it is neither offered nor accepted.
fn tutoring_request_skill() -> Skill {
    Skill {
        id: form::WORKFLOW.into(),
        name: "Tutoring session requests".into(),
        description: "Takes a request for a session with a human tutor (name, email, preferred weekday and time of day, topic) through a form; a tutor confirms the time later.".into(),
        tags: ["tutoring session", "tutor appointment", "in-person tutor", "meet a tutor", "one-on-one help"]
            .map(String::from)
            .to_vec(),
        examples: [
            "can I book a session with a real tutor? tuesdays after 3 work for me",
            "I'd like to schedule a tutoring session on integration, my email is mara.delgado22@gmail.com",
            "sign me up for a calc tuter pls, wednesday mornings",
            "is there an actual person I can meet with every week for calc 2?",
            "Hi, my name is Jonah Whitfield and I'd like to request a one-on-one tutoring appointment on derivatives, ideally Thursday afternoon.",
            "need a human tutor not a bot 😅 can someone meet me friday evening to go over series",
            "how do I request a tutoring slot?",
            "want to set up a meeting with a tutor befor my exam, any time monday works",
            "could a tutor go over related rates with me in person? free mon and wed evenings",
            "i think i need regular sessions, im failing calc 1 and reading explanations alone isn't cutting it",
            "request tutring apointment for limits, thurs morning",
            "can i schedual a tutor for next week? optimization problems",
            "is there a form to ask for a tutoring session",
            "quiero agendar una sesión con un tutor de cálculo, el martes por la tarde",
            "me pueden asignar un tutor? I'm free los jueves en la mañana",
            "tutor ke saath session book karna hai, friday shaam ko, topic integrals",
            "koi tutor mil sakta hai weekly? mera email priya.raman04@gmail.com hai, mornings best",
            "pwede po ba magpa-schedule ng session with a tutor? Monday afternoon po sana",
            "gusto ko ng tutor for Taylor series, available ako tuesday morning",
            "em muốn đặt lịch học với gia sư giải tích vào chiều thứ tư",
            "dat lich gap tutor duoc khong a, em ranh sang thu sau",
            "my advisor said I should see a tutor in person, how do I get one assigned",
            "can you conect me with a tutor on thursday nights? calc 1 derivatives",
            "can I meet a tutor at the library for calc help? wednesday afternoon would be ideal",
            "I keep getting stuck even after the step-by-step stuff here, can I talk to an actual tutor this week?",
            "how long does it take for a tutor to confirm my session time",
            "I asked for a session on tuesday but can we move it to thursday morning instead",
            "any chance of a 1:1 with a calc tutor before the midterm? mornings are best for me",
            "session request: volumes of revolution, early afternoons mon–wed, email theo.brandt@outlook.com",
            "Could I sit down with an actual person next Tuesday afternoon to go over related rates?",
            "I'd like someone to go through optimisation problems with me face to face, Thursdays after 3 work best",
            "Is there a real human who can meet me one-on-one before my midterm? Mornings are best, my email is priya.nair@student.uni.edu",
            "Sign me up to meet with someone about area between curves, I'm free Wednesday evenings",
            "I learn way better talking it through with a person than reading explanations — can you set something up for me on Monday?",
            "My name is Carlos Ruiz, I want a weekly slot with someone to go over my first-year maths homework on rates of change, Friday mornings if possible",
            "Quiero agendar una cita con alguien en persona para repasar problemas de máximos y mínimos, ¿el martes por la tarde se puede?",
            "Mujhe kisi insaan ke saath baith ke Taylor polynomials samajhne hain, Saturday subah ho sakta hai kya?",
            "can i get somone to meet me on zoom thrusday night, im falling behind on the volume of revolution stuff",
            "Before the final I'd like a couple of one-on-one meetings with a real person, afternoons, any weekday except Friday",
            "Who do I talk to about getting a regular weekly meetup with someone who can help me with the rates-of-change unit?",
            "Pwede ba akong magpa-schedule ng one-on-one with a real person para sa optimization problems? Free ako tuwing Wednesday ng tanghali",
        ]
        .map(String::from)
        .to_vec(),
        enabled: true,
        // what the offline tutor says it covers is calculus: the form is not a topic
        allowed_scope: Vec::new(),
        excluded: ["confirming a time (a tutor does that later)".to_string()].to_vec(),
        answer_content: String::new(),
    }
}

/// The Tutor's validation rules: reference notes are optional.
pub const RULES: Rules = Rules { require_content: false };

/// The Tutor answering with `answerer`, its chat messages read by `decider` (the
/// heuristic; in live mode the model), ready for [`specialist::serve`].
pub fn agent(
    answerer: Answerer,
    decider: std::sync::Arc<dyn forms::intent::Decide>,
) -> specialist::Agent<Tutor, impl FnOnce(skills::Settings, telemetry::Telemetry, store::Store) -> Tutor> {
    specialist::Agent {
        identity: IDENTITY,
        card: agent_card,
        mode: answerer.mode().as_str(),
        model: answerer.model(),
        default_skills: default_skills(),
        rules: RULES,
        executor: move |settings, telemetry, store| {
            let env = |k: &str| std::env::var(k).ok();
            Tutor::new(settings, telemetry, answerer, specialist::forms::FormHost::new(store, decider, &env))
        },
    }
}

#[cfg(test)]
mod intent_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod typed_tests;

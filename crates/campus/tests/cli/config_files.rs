//! The example files in `config/` say exactly what the built-in defaults are: each one,
//! loaded the way its agent loads it, gives the same configuration as no file at all.

use std::path::PathBuf;

fn example(name: &str) -> String {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../config").join(format!("{name}.example.json"));
    path.to_string_lossy().into_owned()
}

/// An environment with only `var` set to the example file (or nothing at all).
fn with_file(var: &'static str, file: Option<String>) -> impl Fn(&str) -> Option<String> {
    move |k| if k == var { file.clone() } else { None }
}

fn specialist(var: &'static str, name: &str, port: u16, rules: skills::Rules) -> [specialist::Config; 2] {
    let load = |file| specialist::Config::from_env(var, port, rules, &with_file(var, file)).unwrap();
    [load(Some(example(name))), load(None)]
}

#[test]
fn the_tutor_example_is_the_tutor_default() {
    let [file, default] = specialist("TUTOR_CONFIG", "tutor", tutor::DEFAULT_PORT, tutor::RULES);
    assert_eq!(file.skills.as_ref(), Some(&tutor::default_skills()));
    assert_eq!(
        file,
        specialist::Config { skills: Some(tutor::default_skills()), source: file.source.clone(), ..default }
    );
}

#[test]
fn the_library_example_is_the_library_default() {
    let [file, default] = specialist("LIBRARY_CONFIG", "library", library::DEFAULT_PORT, library::RULES);
    assert_eq!(file.skills.as_ref(), Some(&library::default_skill_set()));
    assert_eq!(
        file,
        specialist::Config {
            skills: Some(library::default_skill_set()),
            source: file.source.clone(),
            ..default
        }
    );
}

#[test]
fn the_professor_example_is_the_professor_default() {
    let [file, default] =
        specialist("PROFESSOR_CONFIG", "professor", professor::DEFAULT_PORT, professor::RULES);
    assert_eq!(file.skills.as_ref(), Some(&professor::default_skills()));
    assert_eq!(
        file,
        specialist::Config {
            skills: Some(professor::default_skills()),
            source: file.source.clone(),
            ..default
        }
    );
}

#[test]
fn the_hub_example_is_the_hub_default() {
    let load = |file| hub::Config::from_env(&with_file("HUB_CONFIG", file)).unwrap();
    // every field, including ones added later, through the derived Debug
    assert_eq!(format!("{:?}", load(Some(example("hub")))), format!("{:?}", load(None)));
}

#[test]
fn the_student_example_is_the_student_default() {
    let load = |file| student::Config::from_env(&with_file("STUDENT_CONFIG", file)).unwrap();
    assert_eq!(load(Some(example("student"))), load(None));
}

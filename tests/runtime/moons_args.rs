//! The main job's command line (`examples/moons/args.rs`, included here).

#![allow(missing_docs)]

#[path = "../../micrograd-runtime/examples/moons/args.rs"]
#[allow(dead_code)]
mod args;

use args::Args;
use std::path::PathBuf;

fn parse(words: &[&str]) -> Result<Option<Args>, String> {
    Args::parse(words.iter().map(|w| w.to_string()))
}

#[test]
fn no_options_run_micrograds_demo_and_draw_moons_svg() {
    let args = parse(&[]).unwrap().unwrap();
    assert_eq!(args, Args::default());
    assert_eq!((args.seed, args.samples, args.noise), (1337, 100, 0.1));
    assert_eq!((args.hidden, args.steps, args.lr), (vec![16, 16], 100, 1.0));
    assert_eq!(Args::default().picture(), PathBuf::from("moons.svg"));
    assert!(Args::default().is_micrograds_demo());
}

#[test]
fn only_micrograds_settings_print_the_notebooks_lines() {
    let demo = |words: &[&str]| parse(words).unwrap().unwrap().is_micrograds_demo();
    assert!(demo(&["--output", "elsewhere.svg"]));
    assert!(demo(&["--seed", "1337", "--hidden", "16,16"]));
    assert!(!demo(&["--samples", "100000"]));
    assert!(!demo(&["--hidden", "32,32"]));
}

#[test]
fn any_other_run_leaves_the_tracked_picture_alone() {
    for words in [
        &["--seed", "7"][..],
        &["--samples=200"],
        &["--hidden", "8,8,8"],
        &["--steps", "10"],
        &["--lr", "0.5"],
        &["--noise", "0.2"],
    ] {
        let args = parse(words).unwrap().unwrap();
        assert_ne!(args.picture(), PathBuf::from("moons.svg"), "{words:?}");
        assert!(
            args.picture().starts_with(std::env::temp_dir()),
            "{words:?}"
        );
    }
    let args = parse(&["--seed", "7", "--output", "seven.svg"])
        .unwrap()
        .unwrap();
    assert_eq!(args.picture(), PathBuf::from("seven.svg"));
}

#[test]
fn options_take_both_spellings() {
    let spaced = parse(&["--seed", "3", "--hidden", "4, 5"]).unwrap();
    let joined = parse(&["--seed=3", "--hidden=4,5"]).unwrap();
    assert_eq!(spaced, joined);
    assert_eq!(spaced.unwrap().hidden, [4, 5]);
}

#[test]
fn help_asks_for_the_help_and_the_help_lists_every_option() {
    assert_eq!(parse(&["--seed", "3", "--help"]), Ok(None));
    assert_eq!(parse(&["-h"]), Ok(None));
    for option in [
        "--seed",
        "--samples",
        "--noise",
        "--hidden",
        "--steps",
        "--lr",
        "--output",
    ] {
        assert!(args::HELP.contains(option), "{option}");
    }
}

#[test]
fn mistakes_are_named() {
    let cases = [
        (&["--sead", "3"][..], "unknown option `--sead`"),
        (&["--bogus"], "unknown option `--bogus`"),
        (
            &["7"],
            "unexpected argument `7`: every option is `--name value`",
        ),
        (&["--seed"], "`--seed` needs a value"),
        (&["--steps", "ten"], "`--steps` takes a number, got `ten`"),
        (&["--hidden", "8,,8"], "`--hidden` takes a number, got ``"),
        (&["--hidden", "8,0"], "`--hidden` sizes must be at least 1"),
        (&["--samples", "0"], "`--samples` must be at least 1"),
        (
            &["--noise", "-1"],
            "`--noise` must be finite and >= 0, got -1",
        ),
        (&["--lr", "inf"], "`--lr` must be finite, got inf"),
    ];
    for (words, message) in cases {
        assert_eq!(parse(words), Err(message.to_string()), "{words:?}");
    }
}

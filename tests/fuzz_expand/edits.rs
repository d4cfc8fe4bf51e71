//! Token trees that can be edited, the edits, and the tokens they draw from.

use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};
use std::str::FromStr;

/// A token tree we can edit: groups hold their children.
#[derive(Clone, Debug)]
pub enum Tt {
    Group(Delimiter, Vec<Tt>),
    Leaf(TokenTree),
}

pub fn to_tts(stream: TokenStream) -> Vec<Tt> {
    stream
        .into_iter()
        .map(|tt| match tt {
            TokenTree::Group(g) => Tt::Group(g.delimiter(), to_tts(g.stream())),
            leaf => Tt::Leaf(leaf),
        })
        .collect()
}

pub fn to_stream(tts: &[Tt]) -> TokenStream {
    tts.iter()
        .map(|tt| match tt {
            Tt::Group(d, inner) => TokenTree::Group(Group::new(*d, to_stream(inner))),
            Tt::Leaf(leaf) => leaf.clone(),
        })
        .collect()
}

/// The number of sequences (the top level and each group's contents).
pub fn count_seqs(tts: &[Tt]) -> usize {
    1 + tts
        .iter()
        .map(|tt| match tt {
            Tt::Group(_, inner) => count_seqs(inner),
            Tt::Leaf(_) => 0,
        })
        .sum::<usize>()
}

/// Runs `f` on the `n`-th sequence in preorder; false if there is none.
pub fn with_seq(tts: &mut Vec<Tt>, n: &mut usize, f: &mut dyn FnMut(&mut Vec<Tt>)) -> bool {
    if *n == 0 {
        f(tts);
        return true;
    }
    *n -= 1;
    for tt in tts.iter_mut() {
        if let Tt::Group(_, inner) = tt
            && with_seq(inner, n, f)
        {
            return true;
        }
    }
    false
}

/// One edit: the sequence (its preorder number), positions in it and a token, each taken
/// modulo what exists.
#[derive(Clone, Debug)]
pub enum Edit {
    Delete(usize, usize),
    Duplicate(usize, usize),
    Swap(usize, usize, usize),
    Replace(usize, usize, usize),
    Truncate(usize, usize),
    Unwrap(usize, usize),
    /// Every occurrence of the `n`-th distinct identifier becomes palette identifier `k`.
    Rename(usize, usize),
}

pub fn apply(tts: &mut Vec<Tt>, edit: &Edit) {
    if let Edit::Rename(n, k) = *edit {
        let mut idents = Vec::new();
        collect_idents(tts, &mut idents);
        if !idents.is_empty() {
            let from = idents[n % idents.len()].clone();
            rename(tts, &from, &renamed(k));
        }
        return;
    }
    let s = match *edit {
        Edit::Delete(s, _)
        | Edit::Duplicate(s, _)
        | Edit::Swap(s, _, _)
        | Edit::Replace(s, _, _)
        | Edit::Truncate(s, _)
        | Edit::Unwrap(s, _) => s,
        Edit::Rename(..) => return,
    };
    let mut n = s % count_seqs(tts);
    with_seq(tts, &mut n, &mut |seq| edit_seq(seq, edit));
}

/// Applies `edit` to the sequence it chose.
pub fn edit_seq(seq: &mut Vec<Tt>, edit: &Edit) {
    if seq.is_empty() {
        return;
    }
    let len = seq.len();
    match *edit {
        Edit::Delete(_, i) => {
            seq.remove(i % len);
        }
        Edit::Duplicate(_, i) => {
            let tt = seq[i % len].clone();
            seq.insert(i % len, tt);
        }
        Edit::Swap(_, i, j) => seq.swap(i % len, j % len),
        Edit::Replace(_, i, t) => seq[i % len] = Tt::Leaf(palette(t)),
        Edit::Truncate(_, i) => seq.truncate(i % (len + 1)),
        Edit::Rename(..) => {}
        // A group replaced by its contents: `(a + b)` becomes `a + b`.
        Edit::Unwrap(_, i) => {
            if let Tt::Group(_, inner) = seq[i % len].clone() {
                seq.splice(i % len..=i % len, inner);
            }
        }
    }
}

/// The distinct identifiers of `tts`, in order of first appearance.
pub fn collect_idents(tts: &[Tt], out: &mut Vec<String>) {
    for tt in tts {
        match tt {
            Tt::Group(_, inner) => collect_idents(inner, out),
            Tt::Leaf(TokenTree::Ident(ident)) => {
                let name = ident.to_string();
                if !out.contains(&name) {
                    out.push(name);
                }
            }
            Tt::Leaf(_) => {}
        }
    }
}

pub fn rename(tts: &mut [Tt], from: &str, to: &Ident) {
    for tt in tts {
        match tt {
            Tt::Group(_, inner) => rename(inner, from, to),
            Tt::Leaf(TokenTree::Ident(ident)) if *ident == from => {
                *tt = Tt::Leaf(TokenTree::Ident(to.clone()));
            }
            Tt::Leaf(_) => {}
        }
    }
}

/// What a renamed identifier becomes: a keyword as a raw identifier, a name the macro
/// generates, or a palette identifier.
pub fn renamed(k: usize) -> Ident {
    const RAW: [&str; 8] = ["in", "type", "loop", "match", "fn", "as", "ref", "gen"];
    const GENERATED: [&str; 16] = [
        "d_x",
        "d_w",
        "d_d_x",
        "t0",
        "c0",
        "seed",
        "tape",
        "graph",
        "i",
        "value",
        "inputs",
        "node",
        "x_1",
        "f_pullback",
        "g_pullback",
        "aliased0",
    ];
    match k % 3 {
        0 => Ident::new_raw(RAW[k / 3 % RAW.len()], Span::call_site()),
        1 => Ident::new(GENERATED[k / 3 % GENERATED.len()], Span::call_site()),
        _ => match palette(k / 3) {
            TokenTree::Ident(ident) => ident,
            _ => Ident::new_raw("type", Span::call_site()),
        },
    }
}

/// The tokens the edits and arbitrary trees draw from: the language's, and others.
pub fn palette(k: usize) -> TokenTree {
    const IDENTS: [&str; 40] = [
        "fn",
        "let",
        "mut",
        "if",
        "else",
        "for",
        "in",
        "return",
        "f64",
        "f32",
        "usize",
        "i32",
        "bool",
        "x",
        "y",
        "w",
        "h",
        "a",
        "b",
        "i",
        "relu",
        "tanh",
        "powi",
        "powf",
        "max",
        "len",
        "wrt",
        "differentiable",
        "self",
        "Self",
        "async",
        "unsafe",
        "loop",
        "while",
        "match",
        "std",
        "consts",
        "PI",
        "true",
        "as",
    ];
    const PUNCTS: [char; 18] = [
        '+', '-', '*', '/', '%', '=', '<', '>', '!', '&', '|', ':', ';', ',', '.', '#', '?', '@',
    ];
    let n = IDENTS.len() + PUNCTS.len() + 12;
    let k = k % n;
    if k < IDENTS.len() {
        return TokenTree::Ident(Ident::new(IDENTS[k], Span::call_site()));
    }
    let k = k - IDENTS.len();
    if k < PUNCTS.len() {
        let spacing = if k.is_multiple_of(2) {
            Spacing::Alone
        } else {
            Spacing::Joint
        };
        return TokenTree::Punct(Punct::new(PUNCTS[k], spacing));
    }
    TokenTree::Literal(match k - PUNCTS.len() {
        0 => Literal::f64_unsuffixed(0.0),
        1 => Literal::f64_unsuffixed(2.5),
        2 => Literal::f64_suffixed(1.0),
        3 => Literal::f32_suffixed(1.0),
        4 => Literal::usize_unsuffixed(0),
        5 => Literal::usize_unsuffixed(3),
        6 => Literal::i32_suffixed(-2),
        7 => Literal::string("s"),
        8 => Literal::character('c'),
        9 => Literal::from_str("1e308").expect("a literal"),
        10 => Literal::from_str("0xff").expect("a literal"),
        _ => Literal::u128_unsuffixed(340_282_366_920_938_463_463_374_607_431_768_211_455),
    })
}

pub fn delimiter(k: usize) -> Delimiter {
    [
        Delimiter::Parenthesis,
        Delimiter::Brace,
        Delimiter::Bracket,
        Delimiter::None,
    ][k % 4]
}

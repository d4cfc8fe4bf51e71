//! Every identifier of the generated code comes from here.
//!
//! Everything the generated functions bind is printed with `Span::mixed_site()`, the
//! parameters included, so no binding can capture or be captured by a name the user wrote: a
//! callee's `g_pullback`, a `const K` or a user's integer parameter `i` read inside a generated
//! `for i in ..` all resolve as they do in `f`. Within one generated function every binding also
//! gets its own text (pin-project's way: append `_` until the name is free), checked against
//! every name of the user's function, so the printed code reads unambiguously too. Raw
//! identifiers (`r#in`) are minted raw exactly where the text is a keyword (`d_in` is not).

use crate::ir::{Origin, Ty, VarId, VarInfo};
use proc_macro2::{Ident, Punct, Spacing, Span, TokenStream, TokenTree};
use std::collections::HashSet;
use syn::ext::IdentExt;

/// The printed names of one generated function.
pub struct Names {
    vars: Vec<Ident>,
    adjoints: Vec<Ident>,
    used: HashSet<String>,
    /// The `const` arrays read through a path (`weights::ALL`, `Origin::Outside` of several
    /// segments), by variable: printed as the path where they are read ([`Names::root`]).
    paths: std::collections::HashMap<usize, TokenStream>,
}

/// The text of `ident` without the `r#` of a raw identifier: what names are built from.
pub fn text(ident: &Ident) -> String {
    ident.unraw().to_string()
}

/// How a parameter is printed in every generated function (and stub): its own text.
pub fn param(ident: &Ident) -> Ident {
    self::ident(&text(ident), Span::mixed_site())
}

/// Keywords of recent editions that the parser may still read as identifiers (`gen` is
/// reserved from edition 2024 on): always printed raw.
const RESERVED: [&str; 1] = ["gen"];

/// The words `syn` refuses as an identifier (its `accept_as_ident`): strict, reserved and
/// weak keywords. `plain` reads these instead of asking `syn` (tests/naming.rs compares the two).
const KEYWORDS: [&str; 52] = [
    "_", "abstract", "as", "async", "await", "become", "box", "break", "const", "continue",
    "crate", "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "Self", "self", "static", "struct", "super", "trait", "true", "try", "type",
    "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Whether `text` is an identifier that is no keyword, as `syn::parse_str::<Ident>` decides:
/// the ASCII names the macro mints (`t12`, `d_x_1`) without lexing them, which `syn` does
/// through a `TokenStream` of their own (in a proc macro, a new source file in rustc's source
/// map per name: a tenth of rustc expanding the random programs); any other text as `syn` reads it.
pub(crate) fn plain(text: &str) -> bool {
    let mut bytes = text.bytes();
    let ascii = bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if ascii {
        !KEYWORDS.contains(&text)
    } else {
        syn::parse_str::<Ident>(text).is_ok()
    }
}

/// An identifier printing `text` (with or without `r#`), raw where `text` is a keyword.
pub fn ident(text: &str, span: Span) -> Ident {
    let text = text.strip_prefix("r#").unwrap_or(text);
    match text {
        // Keywords that cannot be raw (and never name a binding): keep them apart.
        "self" | "Self" | "super" | "crate" | "_" | "" => Ident::new(&format!("{text}_"), span),
        _ if RESERVED.contains(&text) => Ident::new_raw(text, span),
        _ if plain(text) => Ident::new(text, span),
        _ => Ident::new_raw(text, span),
    }
}

/// `f_grad` for `f` and `grad`, or `__f_tangent` for a hidden calling convention (`__` keeps
/// it apart from a user's `f_tangent`), with `f`'s span, so errors and IDEs point at `f`.
pub fn flavor(f: &Ident, suffix: &str, hidden: bool) -> Ident {
    let prefix = if hidden { "__" } else { "" };
    Ident::new(&format!("{prefix}{}_{suffix}", text(f)), f.span())
}

/// `__f_jvp_lanes`: `f_jvp` along `k` directions at once, what `f_jacobian` of a function
/// writing its outputs calls once per chunk of columns; `__f_jvp_lanes4` and the like for the
/// narrower widths than `LANES`.
pub fn lanes(f: &Ident, k: usize) -> Ident {
    Ident::new(&hidden(&text(f), &lanes_suffix(k)), f.span())
}

/// `_jvp_lanes` for the widest sweep, `_jvp_lanes4` for 4 lanes.
pub fn lanes_suffix(k: usize) -> String {
    match k {
        crate::diff::tangent::LANES => "_jvp_lanes".to_string(),
        k => format!("_jvp_lanes{k}"),
    }
}

/// `rule_grad` of `rule`: `suffix` after `ident`, with its span (a user's rule's flavour).
pub fn suffixed(ident: &Ident, suffix: &str) -> Ident {
    Ident::new(&format!("{}{suffix}", text(ident)), ident.span())
}

/// The hidden function of `f` that checks `f`'s calls of the runtime's methods
/// (`provenance.rs`), at the call site.
pub fn provenance(f: &Ident) -> Ident {
    Ident::new(
        &format!("__micrograd_provenance_{}", text(f)),
        Span::call_site(),
    )
}

/// The hidden function of `f` that names each `derivative(..)` rule's `_grad` (`custom.rs`),
/// at the call site.
pub fn rules(f: &Ident) -> Ident {
    Ident::new(&format!("__micrograd_rules_{}", text(f)), Span::call_site())
}

/// The bases of the names lowering binds in the desugared body (`lower/`): each is made
/// free of the user's names ([`free`], [`fresh_in_loop`]) before it is bound.
pub mod lowered {
    /// A `for` item's index at loop depth `k`: `__mg_k0`, ... (`lower/for_items.rs`).
    pub const INDEX: &str = "__mg_k";
    /// The array literals and sub-slices a `for` walks: `__mg_items0_1` (`lower/for_items.rs`).
    pub const ITEMS: &str = "__mg_items";
    /// The attribute that gives a loop, `if`, `match` or block its id in the desugared body,
    /// `#[__micrograd_node(3)]`: never printed, read back by the lowering (`lower/desugar.rs`).
    pub const NODE_ID: &str = "__micrograd_node";
    /// The attribute that gives `let r = g(x);` the fields of the tuple its uses read,
    /// `#[__micrograd_tuple_fields(0, 1)]` for `r.0 + r.1`: never printed, read back by the
    /// lowering (`lower/desugar/tuple_calls.rs`).
    pub const TUPLE_FIELDS: &str = "__micrograd_tuple_fields";
    /// The value a block with an early `return` yields (`lower/values.rs`).
    pub const VALUE: &str = "__mg_value";
    /// One part of a tuple chosen by a branch (`lower/tuple_branch.rs`).
    pub const PART: &str = "__mg_part";
    /// The entry index of a whole-array assignment or swap (`lower/whole.rs`), of a fill
    /// (`lower/stmt.rs`) and of a tuple fill (`lower/desugar/tuple_fills.rs`).
    pub const ENTRY: &str = "__mg_entry";
    /// The value a swap holds while it exchanges two (`lower/whole.rs`).
    pub const SWAPPED: &str = "__mg_swapped";
    /// A local array a call assigned to it reads, copied before the call writes it
    /// (`h = g(&h, x);` of a `g` returning `[f64; M]` of a `const M`, `returned.rs`).
    pub const COPIED: &str = "__mg_copied";
    /// The float a local array is filled with, `[b; N]` (`lower/stmt.rs`).
    pub const FILL: &str = "__mg_fill";
    /// A local array's copy read by the call assigned to it, `h = g(&h);`
    /// (`lower/vector_call.rs`).
    pub const ARGUMENT: &str = "__mg_argument";
    /// What a call of `__f_into`'s flavour writes beside the value, the seed or the tangent of
    /// the array (`f_pullback`, `f_jvp` of a `[f64; M]` of a `const M`, `returned.rs`).
    pub const COMPANION: &str = "__mg_companion";
    /// The Jacobian's rows `f_jacobian` of a `[f64; M]` of a `const M` gathers (`returned.rs`).
    pub const ROWS: &str = "__mg_rows";
    /// The output a loop over a call's outputs reads, `let oc = sub3(o, c);` read as
    /// `for __mg_output in 0..__sub3_outputs { oc[__mg_output] = sub3(o, c)[__mg_output]; }`
    /// (`lower/desugar/array_calls.rs`).
    pub const OUTPUT: &str = "__mg_output";
}

/// The hidden constant beside a function returning `[F; M]` that holds `M`, its output count,
/// from the last segment of its path: `__g_outputs` for `g` (`counted.rs`).
pub fn outputs(segment: &str) -> String {
    hidden(segment, "_outputs")
}

/// The names a method is read as by the pipeline (`methods.rs`): its receiver as a parameter
/// struct, and the path a call on a field goes through.
pub mod method {
    /// The receiver `self`, read as `__micrograd_self: &Self`.
    pub const RECEIVER: &str = "__micrograd_self";
    /// `self.layer.g(..)`, read as `__micrograd_method::g(&__micrograd_self.layer, ..)`.
    pub const PATH: &str = "__micrograd_method";
    /// `self.layers[i].g(..)`, read as `__micrograd_element::g(i, &__micrograd_self.layers, ..)`.
    pub const ELEMENT: &str = "__micrograd_element";
    /// `self.layers[i].neurons.len()`, the length of a field of an element, read as
    /// `__micrograd_element_len::layers::neurons(i)`, a call of integers (`methods/read.rs`).
    pub const ELEMENT_LEN: &str = "__micrograd_element_len";
    /// The index of a loop over a field's elements, `for l in &self.layers`, read as the loop
    /// by index `for __micrograd_self_at in 0..self.layers.len()` (`methods/read.rs`).
    pub const ELEMENT_INDEX: &str = "__micrograd_self_at";
    /// The bound of a float `T` an `impl<T: Float>` declares, which the method is read as
    /// declaring itself: `fn f<T: __micrograd_float::Float>(&self, x: T) -> T`.
    pub const OUTER_FLOAT: &str = "__micrograd_float";
}

/// The most arguments a call made only for what it writes passes to its callee's pullback
/// through `micrograd_runtime::calls::dropped` (whose traits go up to `Dropped32`).
pub const DROPPED_ARITY: usize = 32;

/// The trait of `micrograd_runtime::calls::dropped` that calls a pullback of `n` arguments and
/// a seed if it takes one (`Dropped3`), at `span`.
pub fn dropped(n: usize, span: Span) -> Ident {
    Ident::new(&format!("Dropped{n}"), span)
}

/// The name of a callee's hidden flavour from the last segment of its path: `__g_tangent` for
/// `g` (or `r#g`) and `_tangent`, as [`crate::header::name`] names it.
pub fn hidden(segment: &str, suffix: &str) -> String {
    format!(
        "__{}{suffix}",
        segment.strip_prefix("r#").unwrap_or(segment)
    )
}

/// The shadows of the slice parameters (`d_w` after `w`), in parameter order: `d_` and the
/// name, with `_` appended while it is another parameter's name or an earlier shadow's.
///
/// A function of the signature alone, so the real functions and the error stubs agree.
pub fn shadows(params: &[(&Ident, bool)]) -> Vec<Option<Ident>> {
    let mut used: HashSet<String> = params.iter().map(|(p, _)| text(p)).collect();
    params
        .iter()
        .map(|(param, is_slice)| is_slice.then(|| free(&mut used, &format!("d_{}", text(param)))))
        .collect()
}

/// Collects every identifier (unraw) of the syntax it visits.
struct Collect(HashSet<String>);

impl<'ast> syn::visit::Visit<'ast> for Collect {
    fn visit_ident(&mut self, ident: &'ast Ident) {
        self.0.insert(text(ident));
    }

    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        crate::spine::visit(self, binary, |_, _| {});
    }

    /// A macro's body is tokens, not syntax; `vec![0.0; n]` names `n` all the same.
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        syn::visit::visit_macro(self, mac);
        self.tokens(mac.tokens.clone());
    }
}

impl Collect {
    fn tokens(&mut self, tokens: proc_macro2::TokenStream) {
        for token in tokens {
            match token {
                proc_macro2::TokenTree::Ident(ident) => {
                    self.0.insert(text(&ident));
                }
                proc_macro2::TokenTree::Group(group) => self.tokens(group.stream()),
                _ => {}
            }
        }
    }
}

/// Every identifier in `item` (unraw): the names generated bindings must not print as.
pub fn user_names(item: &syn::ItemFn) -> HashSet<String> {
    let mut collect = Collect(HashSet::new());
    syn::visit::visit_item_fn(&mut collect, item);
    collect.0
}

/// A name for a binding that a rewrite of `for_loop` adds to its body (the loop index of
/// `for x in w`): `base`, with `_` appended until no identifier in the loop is spelled so, so
/// the binding can neither shadow nor be shadowed by a name the user reads there.
pub fn fresh_in_loop(for_loop: &syn::ExprForLoop, base: &str, span: Span) -> Ident {
    let mut collect = Collect(HashSet::new());
    syn::visit::visit_expr_for_loop(&mut collect, for_loop);
    let mut name = base.to_string();
    while collect.0.contains(&name) {
        name.push('_');
    }
    ident(&name, span)
}

/// The path `a::b::C` (`::` before a leading empty segment) at `span`, its keywords (`self`,
/// `super`, `crate`, `Self`) kept.
fn outside_path(path: &str, span: Span) -> TokenStream {
    let mut tokens: Vec<TokenTree> = Vec::new();
    for (i, segment) in path.split("::").enumerate() {
        if i > 0 {
            tokens.push(Punct::new(':', Spacing::Joint).into());
            tokens.push(Punct::new(':', Spacing::Alone).into());
        }
        match segment {
            "" => {}
            "self" | "Self" | "super" | "crate" => tokens.push(Ident::new(segment, span).into()),
            _ => tokens.push(ident(segment, span).into()),
        }
    }
    tokens.into_iter().collect()
}

/// `base` with `_` appended until it is not in `used`; recorded as used.
pub fn free(used: &mut HashSet<String>, base: &str) -> Ident {
    let mut name = base.strip_prefix("r#").unwrap_or(base).to_string();
    while !used.insert(name.clone()) {
        name.push('_');
    }
    ident(&name, Span::mixed_site())
}

impl Names {
    /// Names every variable of `vars`; `params` are the parameters' own identifiers by variable.
    ///
    /// `users` holds every other name the user's function mentions (locals, callees,
    /// constants): no generated binding prints as one of them.
    pub fn new(vars: &[VarInfo], params: &[(VarId, Ident)], users: &HashSet<String>) -> Names {
        let mut names = Names {
            vars: Vec::new(),
            adjoints: Vec::new(),
            used: HashSet::new(),
            paths: std::collections::HashMap::new(),
        };
        let param_of = |index: usize| params.iter().find(|(var, _)| var.0 as usize == index);
        for (_, ident) in params {
            names.used.insert(text(ident));
        }
        let signature: Vec<(&Ident, bool)> = params
            .iter()
            .map(|(var, ident)| (ident, vars[var.0 as usize].ty.is_lent()))
            .collect();
        let shadows = shadows(&signature);
        for shadow in shadows.iter().flatten() {
            names.used.insert(text(shadow));
        }
        // The user's own names first, so they keep their text; then what only the macro
        // names, clear of every name in the user's function.
        let mut minted: Vec<Option<Ident>> = vec![None; vars.len()];
        for (index, info) in vars.iter().enumerate() {
            minted[index] = match (&info.origin, param_of(index)) {
                (_, Some((_, ident))) => Some(param(ident)),
                (Origin::Named { name, version: 0 }, None) => Some(names.fresh(name)),
                (Origin::Named { name, version }, None) => {
                    let name = name.strip_prefix("r#").unwrap_or(name);
                    Some(names.fresh(&format!("{name}_{version}")))
                }
                // A path (`weights::ALL`), printed where it is read; its variable's own name
                // is a temporary's, bound nowhere.
                (Origin::Outside(name), None) if name.contains("::") => {
                    names.paths.insert(index, outside_path(name, info.span));
                    None
                }
                // The item's own name: a user name, so nothing generated takes it.
                (Origin::Outside(name), None) => Some(ident(name, info.span)),
                _ => None,
            };
        }
        names.used.extend(users.iter().cloned());
        let (mut temps, mut decisions) = (0, 0);
        for (index, info) in vars.iter().enumerate() {
            let mut ident = match minted[index].take() {
                Some(ident) => ident,
                None if info.ty == Ty::Bool => {
                    decisions += 1;
                    names.fresh(&format!("c{}", decisions - 1))
                }
                None => {
                    temps += 1;
                    names.fresh(&format!("t{}", temps - 1))
                }
            };
            // Where the user wrote what it holds (a temporary's expression, a local's `let`, a
            // parameter), its hygiene the macro's: an error rustc finds in generated code
            // that reads it points at the user's token, never at the attribute.
            ident.set_span(ident.span().located_at(info.span));
            names.vars.push(ident);
        }
        for (index, info) in vars.iter().enumerate() {
            let shadow = param_of(index)
                .and_then(|(var, _)| params.iter().position(|(v, _)| v == var))
                .and_then(|k| shadows[k].clone());
            let mut ident = match shadow {
                Some(shadow) => shadow,
                None => names.fresh(&format!("d_{}", text(&names.vars[index]))),
            };
            ident.set_span(ident.span().located_at(info.span));
            names.adjoints.push(ident);
        }
        names
    }

    /// A new identifier starting with `base`, unused so far.
    pub fn fresh(&mut self, base: &str) -> Ident {
        free(&mut self.used, base)
    }

    /// A name for a binding local to one generated block (`i` in `for (i, value) in ..`):
    /// `base`, with `_` appended while it is a name of this function, so the block cannot
    /// capture any variable read inside it. Blocks that never nest may share one.
    pub fn local(&self, base: &str) -> Ident {
        let mut name = base.to_string();
        while self.used.contains(&name) {
            name.push('_');
        }
        ident(&name, Span::mixed_site())
    }

    /// The name of a forward variable.
    pub fn var(&self, var: VarId) -> &Ident {
        &self.vars[var.0 as usize]
    }

    /// The root of a read of data: its variable's name, or the path of a `const` array read
    /// through one (`weights::ALL`).
    pub fn root(&self, var: VarId) -> TokenStream {
        match self.paths.get(&(var.0 as usize)) {
            Some(path) => path.clone(),
            None => TokenTree::from(self.var(var).clone()).into(),
        }
    }

    /// The name of its adjoint (for a slice parameter, its shadow `d_w`).
    pub fn adjoint(&self, var: VarId) -> &Ident {
        &self.adjoints[var.0 as usize]
    }
}

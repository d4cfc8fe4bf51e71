//! Expansion snapshots: each `tests/expand/NAME.rs` holds `#[differentiable]` functions whose
//! expansion, pretty-printed, must equal `tests/expand/NAME.expanded.rs`.
//!
//! Re-bless after an intended change with `MICROGRAD_BLESS=1 cargo test --test expand`.

use std::path::Path;

#[test]
fn expansions_match_snapshots() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expand");
    let bless = std::env::var_os("MICROGRAD_BLESS").is_some();
    let mut failures = Vec::new();
    let mut cases = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/expand exists")
        .flatten()
        .collect();
    entries.sort_by_key(|entry| entry.path());
    for entry in entries {
        let path = entry.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        if !name.ends_with(".rs") || name.ends_with(".expanded.rs") {
            continue;
        }
        cases += 1;
        let expanded = expand_file(&std::fs::read_to_string(&path).expect("readable case"));
        let snapshot = path.with_extension("expanded.rs");
        if bless {
            std::fs::write(&snapshot, &expanded).expect("writable snapshot");
        } else if std::fs::read_to_string(&snapshot).ok().as_deref() != Some(expanded.as_str()) {
            failures.push(format!(
                "{name}: expansion differs from {}",
                snapshot.display()
            ));
        }
    }
    assert!(cases > 0, "no cases in {}", dir.display());
    assert!(
        failures.is_empty(),
        "{}\nre-bless with MICROGRAD_BLESS=1 if intended",
        failures.join("\n")
    );
}

/// Expands every `#[differentiable]` function of `source` and pretty-prints the whole file.
fn expand_file(source: &str) -> String {
    let file: syn::File = syn::parse_str(source).expect("case parses");
    let mut items = Vec::new();
    for item in file.items.clone() {
        if let syn::Item::Impl(mut block) = item {
            block.items = block.items.into_iter().flat_map(expand_impl_item).collect();
            items.push(syn::Item::Impl(block));
            continue;
        }
        let syn::Item::Fn(mut function) = item else {
            items.push(item);
            continue;
        };
        let Some(position) = function
            .attrs
            .iter()
            .position(|a| a.path().is_ident("differentiable"))
        else {
            items.push(syn::Item::Fn(function));
            continue;
        };
        let attr = function.attrs.remove(position);
        let args = match attr.meta {
            syn::Meta::List(list) => list.tokens,
            _ => proc_macro2::TokenStream::new(),
        };
        let output = micrograd_codegen::expand(args, quote_item(&function));
        let expanded: syn::File = syn::parse2(output).expect("expansion parses");
        items.extend(expanded.items);
    }
    let mut file = file;
    file.items = items;
    prettyplease::unparse(&file)
}

/// An `impl`'s item, expanded into the associated functions it stands for if it is a
/// `#[differentiable]` method or associated function.
fn expand_impl_item(item: syn::ImplItem) -> Vec<syn::ImplItem> {
    let syn::ImplItem::Fn(mut function) = item else {
        return vec![item];
    };
    let Some(position) = function
        .attrs
        .iter()
        .position(|a| a.path().is_ident("differentiable"))
    else {
        return vec![syn::ImplItem::Fn(function)];
    };
    let attr = function.attrs.remove(position);
    let args = match attr.meta {
        syn::Meta::List(list) => list.tokens,
        _ => proc_macro2::TokenStream::new(),
    };
    let output = micrograd_codegen::expand(args, quote::ToTokens::to_token_stream(&function));
    let wrapped = quote::quote!(impl S { #output });
    let syn::Item::Impl(expanded) = syn::parse2(wrapped).expect("expansion parses") else {
        unreachable!("an impl parses as an impl")
    };
    expanded.items
}

fn quote_item(function: &syn::ItemFn) -> proc_macro2::TokenStream {
    let mut tokens = proc_macro2::TokenStream::new();
    quote::ToTokens::to_tokens(function, &mut tokens);
    tokens
}

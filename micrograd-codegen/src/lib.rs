pub fn expand(_a: proc_macro2::TokenStream, i: proc_macro2::TokenStream) -> proc_macro2::TokenStream { i }

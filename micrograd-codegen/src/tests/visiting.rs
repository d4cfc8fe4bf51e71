//! ir/visit.rs: the generated visitors of the forward IR reach every statement however it
//! nests (branches, loop bodies, a `while`'s head, the right operand of `&&`), tell what each
//! node does with a variable, and the mutable one rewrites what the shared one reads.

use super::{lower, param, var};
use crate::ir::{Access, Block, MutVisitor, Nest, Op, Stmt, VarId, Visitor};
use syn::parse_quote;

/// Every read of `w` sits at a different depth: the top, a branch, a loop body, a `while`'s
/// head, the right operand of `&&` in a condition.
fn nested() -> syn::ItemFn {
    parse_quote! {
        fn f(x: f64, w: &[f64], n: usize) -> f64 {
            let mut s = w[0] * x;
            if x > 0.0 {
                s = s + w[1];
            }
            for i in 0..n {
                s = s * w[i];
            }
            let mut k = 0;
            while k < n && w[k] > 0.5 {
                k += 1;
            }
            if x < 1.0 && w[2] < x {
                s = s - x;
            }
            s
        }
    }
}

/// The arrays loaded by the statements `walk` reaches.
fn loads(block: &[Stmt]) -> Vec<VarId> {
    let mut found = Vec::new();
    crate::ir::walk(block, &mut |stmt| {
        if let Stmt::Assign {
            op: Op::Load(array, _),
            ..
        } = stmt
        {
            found.push(*array);
        }
    });
    found
}

#[test]
fn walk_reaches_every_nested_statement() {
    let function = lower(&nested(), &[]);
    let w = param(&function, 1);
    // Five reads of `w` in the source: one at each depth.
    assert_eq!(loads(&function.body), vec![w; 5]);
    // The top level alone holds one of them.
    let top = function
        .body
        .iter()
        .filter(|s| {
            matches!(
                s,
                Stmt::Assign {
                    op: Op::Load(..),
                    ..
                }
            )
        })
        .count();
    assert_eq!(top, 1);
}

#[test]
fn forward_only_blocks_are_the_head_and_the_operands() {
    let function = lower(&nested(), &[]);
    let w = param(&function, 1);
    let mut blocks: Vec<&[Stmt]> = Vec::new();
    crate::ir::forward_only(&function.body, &mut |block| blocks.push(block));
    // The reads of `w[k]` (the `while`'s condition) and of `w[2]` (the `&&` of the second
    // `if`) are forward only; the branch's and the loop body's are not.
    let read: Vec<VarId> = blocks.iter().flat_map(|block| loads(block)).collect();
    assert_eq!(read, vec![w; 2]);

    // The same from the nesting the visitor reports.
    struct Roles(Vec<Nest>);
    impl Visitor<'_> for Roles {
        fn visit_block(&mut self, block: &Block, nest: Nest) {
            if block.iter().any(is_load) {
                self.0.push(nest);
            }
            self.super_block(block, nest);
        }
    }
    fn is_load(stmt: &Stmt) -> bool {
        matches!(
            stmt,
            Stmt::Assign {
                op: Op::Load(..),
                ..
            }
        )
    }
    let mut roles = Roles(Vec::new());
    roles.visit_block(&function.body, Nest::Top);
    let kinds: Vec<&str> = roles
        .0
        .iter()
        .map(|nest| match nest {
            Nest::Top => "top",
            Nest::Then(_) => "then",
            Nest::Else(_) => "else",
            Nest::Body(_) => "body",
            Nest::Head(_) => "head",
            Nest::Operand => "operand",
        })
        .collect();
    // In order: the top, the first branch, the `for` body, then the right operands of the
    // `while`'s `&&` and of the second `if`'s, which only the forward sweep runs.
    assert_eq!(kinds, ["top", "then", "body", "operand", "operand"]);
    let forward: Vec<bool> = roles.0.iter().map(|n| n.is_forward_only()).collect();
    assert_eq!(forward, [false, false, false, true, true]);
}

#[test]
fn accesses_tell_definitions_reads_and_stores_apart() {
    let item: syn::ItemFn = parse_quote! {
        fn f(x: f64, n: usize) -> f64 {
            let mut a = [0.0; 3];
            a[1] = x;
            a[2] += x * x;
            let m = n + 1;
            a[0] * a[1] + a[2] + m as f64
        }
    };
    let function = lower(&item, &[]);
    let (a, x) = (var(&function, "a", 0), param(&function, 0));
    struct Uses(Vec<(VarId, Access)>);
    impl Visitor<'_> for Uses {
        fn visit_var(&mut self, var: &VarId, access: Access) {
            self.0.push((*var, access));
        }
    }
    let mut uses = Uses(Vec::new());
    uses.visit_block(&function.body, Nest::Top);
    let of = |v: VarId, access: Access| uses.0.iter().filter(|u| **u == (v, access)).count();
    assert_eq!(of(a, Access::Def), 1, "one declaration");
    assert_eq!(of(a, Access::Store), 2, "`a[1] =` and `a[2] +=`");
    assert_eq!(of(a, Access::Read), 3, "three loads");
    assert_eq!(of(x, Access::Read), 3, "`= x` and `x * x`");
    assert_eq!(
        of(x, Access::Def),
        0,
        "a parameter is bound by the signature"
    );
    // `m` is defined once and read once, by `m as f64`.
    let m = var(&function, "m", 0);
    assert_eq!((of(m, Access::Def), of(m, Access::Read)), (1, 1));
}

#[test]
fn reads_of_a_condition_leave_its_operands_statements_out() {
    let item: syn::ItemFn = parse_quote! {
        fn f(x: f64, y: f64) -> f64 {
            if x > 0.0 || { let t = y * y; t < 1.0 } { x } else { y }
        }
    };
    let function = lower(&item, &[]);
    let (x, y) = (param(&function, 0), param(&function, 1));
    let Some(Stmt::If(branch)) = function.body.iter().find(|s| matches!(s, Stmt::If(_))) else {
        panic!("an if");
    };
    assert!(branch.cond.has_stmts());
    let mut read = Vec::new();
    branch.cond.visit_vars(&mut |v| read.push(v));
    // `x` and `t`, not the `y` that only the operand's statement reads.
    assert_eq!(read.len(), 2, "{read:?}");
    assert_eq!(read[0], x);
    assert!(!read.contains(&y));
    // The full visitor does see `y`, in the operand's statements.
    let mut all = Vec::new();
    struct Every<'v>(&'v mut Vec<VarId>);
    impl Visitor<'_> for Every<'_> {
        fn visit_var(&mut self, var: &VarId, access: Access) {
            if access == Access::Read {
                self.0.push(*var);
            }
        }
    }
    Every(&mut all).visit_cond(&branch.cond);
    assert!(all.contains(&y));
}

#[test]
fn the_mutable_visitor_rewrites_what_the_shared_one_reads() {
    let mut function = lower(&nested(), &[]);
    let (x, n) = (param(&function, 0), param(&function, 2));
    struct Count(VarId, usize);
    impl Visitor<'_> for Count {
        fn visit_var(&mut self, var: &VarId, _: Access) {
            self.1 += usize::from(*var == self.0);
        }
    }
    let count = |body: &Block, v: VarId| {
        let mut count = Count(v, 0);
        count.visit_block(body, Nest::Top);
        count.1
    };
    let (xs, ns) = (count(&function.body, x), count(&function.body, n));
    // `x` is read at the top, in both conditions and in the last branch; `n` by the range and
    // the `while`'s head.
    assert!(xs >= 4 && ns >= 2, "{xs} {ns}");

    struct Rename(VarId, VarId);
    impl MutVisitor for Rename {
        fn visit_var(&mut self, var: &mut VarId, _: Access) {
            if *var == self.0 {
                *var = self.1;
            }
        }
    }
    Rename(x, n).visit_block(&mut function.body, Nest::Top);
    assert_eq!(count(&function.body, x), 0);
    assert_eq!(count(&function.body, n), xs + ns);
}

/// A call lent an array in the right operand of an assertion's `||` runs in the forward sweep
/// only, as in a `while`'s condition: refused as there (`lower/call.rs`'s
/// `lent_in_conditions` through `ir::forward_only`).
#[test]
fn a_call_lent_an_array_in_an_assertions_operand_is_refused() {
    let item = quote::quote! {
        fn f(x: f64) -> f64 {
            let mut h = [x, 2.0 * x];
            assert!(x > 100.0 || g(&mut h) > 0.0);
            h[0] * h[1]
        }
    };
    let code = crate::expand(quote::quote!(), item).to_string();
    assert!(
        code.contains("a call lent an array as `&mut` cannot be part of"),
        "{code}"
    );
}

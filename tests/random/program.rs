//! Whole programs: parameters, and one to three functions each calling the earlier ones.

use super::*;
use std::collections::HashSet;

/// The parameters of a new function.
pub fn params(rng: &mut Rng, entry: bool) -> Vec<Param> {
    let n = rng.range(1, 4) as usize;
    let mut out: Vec<Param> = Vec::new();
    for k in 0..n {
        let kind = match rng.weighted(&[50, 20, if entry { 6 } else { 0 }, 10, 5, 4]) {
            0 => PKind::Scalar,
            1 => PKind::Slice(rng.range(1, 4) as usize),
            2 => PKind::Array(rng.range(1, 4) as usize),
            3 => PKind::Usize(rng.range(1, 4) as usize),
            4 => {
                let lo = rng.range(-2, 1) as i32;
                PKind::I32(lo, lo + rng.range(1, 3) as i32)
            }
            _ => PKind::Bool,
        };
        let prefix = match kind {
            PKind::Scalar => "a",
            PKind::Slice(_)
            | PKind::Array(_)
            | PKind::Vec(_)
            | PKind::ArrayByValue(_)
            | PKind::MutSlice(_) => "w",
            PKind::Usize(_) => "n",
            PKind::I32(..) => "e",
            PKind::Bool => "flag",
            PKind::Labels(_) => "labels",
            PKind::Matrix(..) => "mx",
        };
        let mut name = format!("{prefix}{k}");
        if kind == PKind::Scalar && rng.chance(0.05) {
            let tricky = rng.pick(&["seed", "graph", "t0", "d_a0", "c0", "tape"]);
            if !out.iter().any(|p| p.name == tricky) {
                name = tricky.to_string();
            }
        }
        out.push(Param { name, kind });
    }
    if !out.iter().any(|p| p.kind.differentiable()) {
        let k = out.len();
        out.push(Param {
            name: format!("a{k}"),
            kind: PKind::Scalar,
        });
    }
    out
}

/// Gives some entries a `&[usize]` parameter of data, drawn from a generator of its own so
/// that the other programs of a seed stay as they were.
fn labels(params: &mut Vec<Param>, seed: u64) {
    let mut rng = Rng::new(mix(seed ^ 0x4C41_4245_4C53_2121));
    if rng.chance(0.2) {
        let at = rng.below(params.len() + 1);
        let kind = PKind::Labels(rng.range(1, 4) as usize);
        params.insert(
            at,
            Param {
                name: format!("labels{at}"),
                kind,
            },
        );
    }
}

/// Generates program `id` of the run seeded with `seed`.
pub fn program(seed: u64, id: usize) -> Program {
    let mut rng = Rng::new(program_seed(seed, id));
    let value_only = rng.chance(0.3);
    let nfuncs = rng.weighted(&[0, 50, 35, 15]);
    let mut funcs: Vec<Func> = Vec::new();
    funcs.extend(generic_fns::generic_fn(program_seed(seed, id), value_only));
    for k in 0..nfuncs {
        let entry = k + 1 == nfuncs;
        let mut params = params(&mut rng, entry);
        if entry {
            labels(&mut params, program_seed(seed, id));
        }
        // Several values: some entries, more callees (a caller takes them apart).
        let out = rng.chance(if entry { 0.15 } else { 0.3 }).then(|| Out {
            m: rng.range(2, 3) as usize,
            tuple: rng.chance(0.5),
        });
        // A function returning several values is lent no array (the macro refuses it).
        if out.is_none() {
            lend::mut_param(&mut params, program_seed(seed, id), k, entry);
        }
        let callees: Vec<Callee> = funcs
            .iter()
            .map(|f| Callee {
                name: f.name.clone(),
                params: f.params.clone(),
                out: f.out.clone(),
                unit: f.unit.is_some(),
            })
            .collect();
        // A callee lent an array may return `()`, its output what it writes (lend.rs).
        let unit = lend::unit_output(&params, program_seed(seed, id), k, entry || out.is_some());
        let mut g = Gen {
            rng: &mut rng,
            value_only,
            scopes: vec![Scope::default()],
            loop_depth: 0,
            if_depth: 0,
            ret_ok: unit.is_none(),
            returns_left: if unit.is_some() { 0 } else { 2 },
            loops_left: 4,
            calls_left: if callees.is_empty() { 0 } else { 3 },
            arrays_left: 3,
            frozen: HashSet::new(),
            no_pass: Vec::new(),
            callees,
            out: out.clone(),
            // Fresh names count on from the parameters' (`w3` is a parameter's name where a
            // function has four: seed 4, program 186 bound a local `w3` that indexed as the
            // parameter's).
            counter: params.len(),
            expr_blocks: 0,
            labels: Vec::new(),
            unit: unit.clone(),
        };
        for p in &params {
            match p.kind {
                PKind::Scalar => g.scope().f.push(FVar {
                    name: p.name.clone(),
                    mutable: false,
                    typed: true,
                    outside: false,
                }),
                PKind::Slice(len)
                | PKind::Array(len)
                | PKind::Vec(len)
                | PKind::ArrayByValue(len) => g.scope().s.push(SVar {
                    name: p.name.clone(),
                    len,
                    exact: matches!(p.kind, PKind::Array(_) | PKind::ArrayByValue(_)),
                    local: false,
                    loop_depth: 0,
                    typed: true,
                }),
                PKind::Usize(max) => g.scope().i.push(IVar {
                    name: p.name.clone(),
                    ty: ITy::Usize,
                    // n <= max: a loop `0..n` stays below max, n itself below max + 1
                    bound: Some(Bound::Const(max + 1)),
                    mutable: false,
                    depth: 1,
                }),
                PKind::I32(..) => g.scope().i.push(IVar {
                    name: p.name.clone(),
                    ty: ITy::I32,
                    bound: None,
                    mutable: false,
                    depth: 1,
                }),
                PKind::Bool => g.scope().b.push(p.name.clone()),
                PKind::Labels(n) => g.labels.push((p.name.clone(), n)),
                PKind::MutSlice(len) => g.scope().s.push(lend::mut_svar(&p.name, len)),
                PKind::Matrix(..) => {}
            }
        }
        // Every callee slice gets something long enough to pass: a local array of length 4
        // whenever the function calls a function taking slices and has no slice of its own.
        let mut body = Vec::new();
        let needs_array = g
            .callees
            .iter()
            .any(|c| c.params.iter().any(|p| matches!(p.kind, PKind::Slice(_))));
        if needs_array && !g.svars().iter().any(|s| s.len >= 4) {
            let name = g.fresh("h");
            g.scope().s.push(SVar {
                name: name.clone(),
                len: 4,
                exact: true,
                local: true,
                loop_depth: 0,
                typed: true,
            });
            body.push(Stmt::LetArr {
                name: name.clone(),
                len: 4,
                fill: 0.0,
                fill_var: None,
                style: 1,
                seq: None,
            });
            g.no_pass.push(name.clone());
            let src = g.expr(1);
            g.no_pass.pop();
            body.push(Stmt::Store {
                arr: name.clone(),
                idx: IExpr::Lit(g.rng.range(0, 3)),
                op: "=",
                expr: src,
            });
        }
        body.extend(g.lend_prologue());
        let n = g.rng.range(2, 8) as usize;
        body.extend(g.stmts(n, 0));
        let ends_with_return = body.last().is_some_and(diverges);
        let tail = if ends_with_return {
            None
        } else {
            let d = g.rng.range(1, 3) as usize;
            let mut parts = Vec::new();
            for _ in 0..out.as_ref().map_or(1, |o| o.m) {
                let mut part = g.expr(d);
                // Tie a few live variables and array entries into the result.
                let vars = g.fvars();
                for _ in 0..g.rng.range(0, 3) {
                    if vars.is_empty() {
                        break;
                    }
                    let v = g.rng.pick(&vars);
                    let op = g.rng.pick(&["+", "-", "+"]);
                    part = Expr::Bin(op, Box::new(part), Box::new(Expr::Var(v.name, v.typed)));
                }
                parts.push(part);
            }
            let tail = vec_calls::values(parts, out.as_ref());
            if unit.is_none() && g.rng.chance(0.3) {
                body.push(Stmt::Return(tail));
                None
            } else {
                Some(tail)
            }
        };
        drop(g);
        let wrt = if rng.chance(0.3) {
            let diff: Vec<String> = params
                .iter()
                .filter(|p| p.kind.differentiable())
                .map(|p| p.name.clone())
                .collect();
            let mut chosen: Vec<String> =
                diff.iter().filter(|_| rng.chance(0.5)).cloned().collect();
            if chosen.is_empty() {
                chosen.push(rng.pick(&diff));
            }
            if rng.chance(0.3) {
                chosen.reverse();
            }
            Some(chosen)
        } else {
            None
        };
        let hvp = lend::asks_hvp(&params, entry);
        funcs.push(Func {
            name: format!("f{k}"),
            params,
            wrt,
            body,
            tail,
            hvp,
            out,
            jacobian: false,
            generic: false,
            unit,
            named_len: false,
        });
    }
    entry_kinds(&mut funcs, program_seed(seed, id));
    // A function returning `()` has no second order yet, and a caller's `hvp` cannot go through
    // it: such programs are checked in reverse mode (`f_grad`, `f_pullback`).
    if funcs.iter().any(|f| f.unit.is_some()) {
        for f in funcs.iter_mut() {
            f.hvp = false;
        }
    }
    let entry = funcs.last_mut().expect("a function");
    // `f_jacobian` differentiates `f64`s and read-only slices, not arrays by value.
    let by_value = |q: &Param| matches!(q.kind, PKind::ArrayByValue(_)) && entry.is_wrt(q);
    // Only with `hvp`, whose `f_jvp` the output-by-output checks call (vector_check.rs).
    entry.jacobian = entry.out.is_some() && entry.hvp && !entry.params.iter().any(by_value);
    let weights = match &entry.out {
        // Nonzero multiples of 1/4 in [-2, 2]: exact in `f32` too.
        Some(out) => (0..out.m)
            .map(|_| (rng.range(1, 8) as f64 / 4.0) * if rng.chance(0.5) { -1.0 } else { 1.0 })
            .collect(),
        None => Vec::new(),
    };
    let methods = Rng::new(mix(program_seed(seed, id) ^ 0x4D45_5448_4F44)).chance(0.15);
    if methods {
        // Methods return what they compute (a callee drawn returning `()` is printed returning
        // its tail, which its callers, statements made for what it writes, drop).
        for f in funcs.iter_mut() {
            f.unit = None;
        }
        for f in funcs.iter_mut().filter(|f| !f.generic && f.wrt.is_none()) {
            let all = f.params.iter().filter(|q| q.kind.differentiable());
            f.wrt = Some(all.map(|q| q.name.clone()).collect());
        }
    }
    let mut program = Program {
        id,
        funcs,
        methods,
        value_only,
        names: Default::default(),
        single: false,
        seed: weights,
    };
    matrix_params::draw(&mut program, program_seed(seed, id));
    pairs::draw(&mut program, program_seed(seed, id));
    steps::draw(&mut program, program_seed(seed, id));
    hygiene::rename(&mut program, program_seed(seed, id));
    program
}

/// The entry takes some slices as `&Vec<f64>` and some arrays by value (issue 12's parameter
/// kinds): the body reads them alike, so only the printing differs. Drawn from a stream of its
/// own, so every seed's programs are otherwise what they were.
fn entry_kinds(funcs: &mut [Func], seed: u64) {
    let mut rng = Rng::new(seed ^ 0x05EE_D0F4_B1D5);
    let Some(entry) = funcs.last_mut() else {
        return;
    };
    for p in &mut entry.params {
        p.kind = match p.kind {
            PKind::Slice(n) if rng.chance(0.3) => PKind::Vec(n),
            PKind::Array(n) if rng.chance(0.4) => PKind::ArrayByValue(n),
            ref kind => kind.clone(),
        };
    }
}

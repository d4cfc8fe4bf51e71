use micrograd_runtime::prelude::*;
const M: usize = 3;
#[allow(clippy::needless_range_loop, dead_code)]
fn sub(a: &[f64; M], b: &[f64; M]) -> [f64; M] {
    let mut r = [0.0; M];
    for i in 0..M {
        r[i] = a[i] * b[i] - b[i];
    }
    r
}
#[doc(hidden)]
#[allow(clippy::needless_range_loop, dead_code)]
fn __sub_into(a: &[f64; M], b: &[f64; M], __micrograd_out: &mut [f64]) {
    let mut r = [0.0; M];
    for i in 0..M {
        r[i] = a[i] * b[i] - b[i];
    }
    for __mg_k in 0..M {
        __micrograd_out[__mg_k] = r[__mg_k];
    }
}
#[doc(hidden)]
#[allow(dead_code, unused_parens, clippy::all)]
fn __sub_into_pullback(
    a: &[::core::primitive::f64; M],
    d_a: &mut [::core::primitive::f64],
    b: &[::core::primitive::f64; M],
    d_b: &mut [::core::primitive::f64],
    __micrograd_out: &mut [::core::primitive::f64],
    d___micrograd_out: &mut [::core::primitive::f64],
) {
    if !d_a.is_empty() && d_a.len() != a.len() {
        ::core::panic!(
            "__sub_into_pullback: the shadow `d_a` has {} entries but `a` has {}; they must have the same length",
            d_a.len(), a.len()
        );
    }
    if !d_b.is_empty() && d_b.len() != b.len() {
        ::core::panic!(
            "__sub_into_pullback: the shadow `d_b` has {} entries but `b` has {}; they must have the same length",
            d_b.len(), b.len()
        );
    }
    if d___micrograd_out.len() != __micrograd_out.len() {
        ::core::panic!(
            "__sub_into_pullback: the shadow `d___micrograd_out` has {} entries but `__micrograd_out` has {}; they must have the same length",
            d___micrograd_out.len(), __micrograd_out.len()
        );
    }
    let mut r = [0.0_f64; M];
    for i in 0..M {
        let t0 = a[i];
        let t1 = b[i];
        let t2 = t0 * t1;
        let t3 = b[i];
        let t4 = t2 - t3;
        r[i] = t4;
    }
    for __mg_k in 0..M {
        let t5 = r[__mg_k];
        __micrograd_out[__mg_k] = t5;
    }
    let mut d_r = [0.0; M];
    for __mg_k in (0..M).rev() {
        let d_t5 = d___micrograd_out[__mg_k];
        d___micrograd_out[__mg_k] = 0.0;
        d_r[__mg_k] += d_t5;
    }
    for i in (0..M).rev() {
        let d_t4 = d_r[i];
        let d_t0 = d_t4 * b[i];
        let d_t1 = d_t4 * a[i];
        if !d_b.is_empty() {
            d_b[i] += -d_t4 + d_t1;
        }
        if !d_a.is_empty() {
            d_a[i] += d_t0;
        }
    }
    ()
}
#[doc(hidden)]
#[allow(dead_code, unused_parens, clippy::all)]
fn __sub_into_jvp(
    a: &[::core::primitive::f64; M],
    v_a: &[::core::primitive::f64; M],
    b: &[::core::primitive::f64; M],
    v_b: &[::core::primitive::f64; M],
    __micrograd_out: &mut [::core::primitive::f64],
    v___micrograd_out: &mut [::core::primitive::f64],
) {
    if v___micrograd_out.len() != __micrograd_out.len() {
        ::core::panic!(
            "__sub_into_jvp: the tangent `v___micrograd_out` has {} entries but `__micrograd_out` has {}; they must have the same length",
            v___micrograd_out.len(), __micrograd_out.len()
        );
    }
    let mut r = [0.0_f64; M];
    let mut v_r = [0.0_f64; M];
    for i in 0..M {
        let t0 = a[i];
        let t6 = v_a[i];
        let t1 = b[i];
        let t7 = v_b[i];
        let t2 = t0 * t1;
        let t8 = t6 * t1;
        let t9 = t7 * t0;
        let t10 = t8 + t9;
        let t3 = b[i];
        let t11 = v_b[i];
        let t4 = t2 - t3;
        let t12 = t10 - t11;
        r[i] = t4;
        v_r[i] = t12;
    }
    for __mg_k in 0..M {
        let t5 = r[__mg_k];
        let t13 = v_r[__mg_k];
        __micrograd_out[__mg_k] = t5;
        v___micrograd_out[__mg_k] = t13;
    }
}
#[doc(hidden)]
#[allow(dead_code, unused_parens, clippy::all)]
fn ____sub_into_tangent(
    a: &[::core::primitive::f64; M],
    v_a: &[::core::primitive::f64; M],
    b: &[::core::primitive::f64; M],
    v_b: &[::core::primitive::f64; M],
    __micrograd_out: &mut [::core::primitive::f64],
    v___micrograd_out: &mut [::core::primitive::f64],
) {
    if !v___micrograd_out.is_empty() && v___micrograd_out.len() != __micrograd_out.len()
    {
        ::core::panic!(
            "____sub_into_tangent: the tangent `v___micrograd_out` has {} entries but `__micrograd_out` has {}; they must have the same length",
            v___micrograd_out.len(), __micrograd_out.len()
        );
    }
    let mut r = [0.0_f64; M];
    let mut v_r = [0.0_f64; M];
    for i in 0..M {
        let t0 = a[i];
        let t6 = if v_a.is_empty() { 0.0 } else { v_a[i] };
        let t1 = b[i];
        let t7 = if v_b.is_empty() { 0.0 } else { v_b[i] };
        let t2 = t0 * t1;
        let t8 = t6 * t1;
        let t9 = t7 * t0;
        let t10 = t8 + t9;
        let t3 = b[i];
        let t11 = if v_b.is_empty() { 0.0 } else { v_b[i] };
        let t4 = t2 - t3;
        let t12 = t10 - t11;
        r[i] = t4;
        v_r[i] = t12;
    }
    for __mg_k in 0..M {
        let t5 = r[__mg_k];
        let t13 = v_r[__mg_k];
        __micrograd_out[__mg_k] = t5;
        v___micrograd_out[__mg_k] = t13;
    }
    ()
}
#[doc(hidden)]
#[allow(
    dead_code,
    unused_parens,
    unused_mut,
    unused_variables,
    unused_assignments,
    clippy::all
)]
fn __sub_into_jacobian(
    a: &[::core::primitive::f64; M],
    d_a: &mut [::core::primitive::f64],
    b: &[::core::primitive::f64; M],
    d_b: &mut [::core::primitive::f64],
    __micrograd_out: &mut [::core::primitive::f64],
) {
    let m: usize = 0 + __micrograd_out.len();
    if d_a.len() != m * a.len() {
        ::core::panic!(
            "__sub_into_jacobian: the Jacobian block `d_a` has {} entries but `a` has {} and there are {} outputs; it must have the outputs' count times a.len()",
            d_a.len(), a.len(), m
        );
    }
    if d_b.len() != m * b.len() {
        ::core::panic!(
            "__sub_into_jacobian: the Jacobian block `d_b` has {} entries but `b` has {} and there are {} outputs; it must have the outputs' count times b.len()",
            d_b.len(), b.len(), m
        );
    }
    let mut v_a = ::std::vec![0.0; a.len()];
    let mut v_b = ::std::vec![0.0; b.len()];
    let entry___micrograd_out = __micrograd_out.to_vec();
    let mut v___micrograd_out = ::std::vec![0.0; __micrograd_out.len()];
    let o_a: usize = 0;
    let o_b: usize = 0 + a.len();
    let n: usize = 0 + a.len() + b.len();
    let mut v_a_: [::std::vec::Vec<::core::primitive::f64>; 8] = ::core::array::from_fn(|
        _|
    ::std::vec![0.0; a.len()]);
    let mut v_b_: [::std::vec::Vec<::core::primitive::f64>; 8] = ::core::array::from_fn(|
        _|
    ::std::vec![0.0; b.len()]);
    let mut v___micrograd_out_: [::std::vec::Vec<::core::primitive::f64>; 8] = ::core::array::from_fn(|
        _|
    ::std::vec![0.0; __micrograd_out.len()]);
    let mut c0 = 0usize;
    while c0 < n {
        let k: usize = match n - c0 {
            1 => 1,
            2 => 2,
            3..=4 => 4,
            _ => 8,
        };
        for l in 0..k {
            let c = c0 + l;
            if c < n {
                if c >= o_a && c < o_a + a.len() {
                    v_a_[l][c - o_a] = 1.0;
                }
                if c >= o_b && c < o_b + b.len() {
                    v_b_[l][c - o_b] = 1.0;
                }
            }
        }
        __micrograd_out.copy_from_slice(&entry___micrograd_out);
        for t_ in v___micrograd_out_[..k].iter_mut() {
            t_.fill(0.0);
        }
        {
            let [v0___micrograd_out, v1___micrograd_out, v2___micrograd_out,
            v3___micrograd_out, v4___micrograd_out, v5___micrograd_out,
            v6___micrograd_out, v7___micrograd_out] = &mut v___micrograd_out_;
            match k {
                4 => {
                    ____sub_into_jvp_lanes4(
                        a,
                        (&v_a_[0][..]).try_into().unwrap(),
                        (&v_a_[1][..]).try_into().unwrap(),
                        (&v_a_[2][..]).try_into().unwrap(),
                        (&v_a_[3][..]).try_into().unwrap(),
                        b,
                        (&v_b_[0][..]).try_into().unwrap(),
                        (&v_b_[1][..]).try_into().unwrap(),
                        (&v_b_[2][..]).try_into().unwrap(),
                        (&v_b_[3][..]).try_into().unwrap(),
                        __micrograd_out,
                        v0___micrograd_out,
                        v1___micrograd_out,
                        v2___micrograd_out,
                        v3___micrograd_out,
                    )
                }
                2 => {
                    ____sub_into_jvp_lanes2(
                        a,
                        (&v_a_[0][..]).try_into().unwrap(),
                        (&v_a_[1][..]).try_into().unwrap(),
                        b,
                        (&v_b_[0][..]).try_into().unwrap(),
                        (&v_b_[1][..]).try_into().unwrap(),
                        __micrograd_out,
                        v0___micrograd_out,
                        v1___micrograd_out,
                    )
                }
                1 => {
                    ____sub_into_jvp_lanes1(
                        a,
                        (&v_a_[0][..]).try_into().unwrap(),
                        b,
                        (&v_b_[0][..]).try_into().unwrap(),
                        __micrograd_out,
                        v0___micrograd_out,
                    )
                }
                _ => {
                    ____sub_into_jvp_lanes(
                        a,
                        (&v_a_[0][..]).try_into().unwrap(),
                        (&v_a_[1][..]).try_into().unwrap(),
                        (&v_a_[2][..]).try_into().unwrap(),
                        (&v_a_[3][..]).try_into().unwrap(),
                        (&v_a_[4][..]).try_into().unwrap(),
                        (&v_a_[5][..]).try_into().unwrap(),
                        (&v_a_[6][..]).try_into().unwrap(),
                        (&v_a_[7][..]).try_into().unwrap(),
                        b,
                        (&v_b_[0][..]).try_into().unwrap(),
                        (&v_b_[1][..]).try_into().unwrap(),
                        (&v_b_[2][..]).try_into().unwrap(),
                        (&v_b_[3][..]).try_into().unwrap(),
                        (&v_b_[4][..]).try_into().unwrap(),
                        (&v_b_[5][..]).try_into().unwrap(),
                        (&v_b_[6][..]).try_into().unwrap(),
                        (&v_b_[7][..]).try_into().unwrap(),
                        __micrograd_out,
                        v0___micrograd_out,
                        v1___micrograd_out,
                        v2___micrograd_out,
                        v3___micrograd_out,
                        v4___micrograd_out,
                        v5___micrograd_out,
                        v6___micrograd_out,
                        v7___micrograd_out,
                    )
                }
            }
        }
        for l in 0..k {
            let c = c0 + l;
            if c < n {
                if c >= o_a && c < o_a + a.len() {
                    v_a_[l][c - o_a] = 0.0;
                }
                if c >= o_b && c < o_b + b.len() {
                    v_b_[l][c - o_b] = 0.0;
                }
            }
        }
        for l in 0..k {
            let c = c0 + l;
            if c < n {
                if c >= o_a && c < o_a + a.len() {
                    let mut i__ = 0usize;
                    for t_ in v___micrograd_out_[l].iter() {
                        d_a[i__ * a.len() + (c - o_a)] = *t_;
                        i__ += 1;
                    }
                }
                if c >= o_b && c < o_b + b.len() {
                    let mut i__ = 0usize;
                    for t_ in v___micrograd_out_[l].iter() {
                        d_b[i__ * b.len() + (c - o_b)] = *t_;
                        i__ += 1;
                    }
                }
            }
        }
        c0 += k;
    }
    if 0 + a.len() + b.len() == 0 {
        __sub_into_jvp(
            a,
            (&v_a[..]).try_into().unwrap(),
            b,
            (&v_b[..]).try_into().unwrap(),
            __micrograd_out,
            &mut v___micrograd_out,
        );
    }
}
#[doc(hidden)]
#[allow(dead_code, unused_parens, clippy::all)]
#[inline]
fn ____sub_into_jvp_lanes(
    a: &[::core::primitive::f64; M],
    v0_a: &[::core::primitive::f64; M],
    v1_a: &[::core::primitive::f64; M],
    v2_a: &[::core::primitive::f64; M],
    v3_a: &[::core::primitive::f64; M],
    v4_a: &[::core::primitive::f64; M],
    v5_a: &[::core::primitive::f64; M],
    v6_a: &[::core::primitive::f64; M],
    v7_a: &[::core::primitive::f64; M],
    b: &[::core::primitive::f64; M],
    v0_b: &[::core::primitive::f64; M],
    v1_b: &[::core::primitive::f64; M],
    v2_b: &[::core::primitive::f64; M],
    v3_b: &[::core::primitive::f64; M],
    v4_b: &[::core::primitive::f64; M],
    v5_b: &[::core::primitive::f64; M],
    v6_b: &[::core::primitive::f64; M],
    v7_b: &[::core::primitive::f64; M],
    __micrograd_out: &mut [::core::primitive::f64],
    v0___micrograd_out: &mut [::core::primitive::f64],
    v1___micrograd_out: &mut [::core::primitive::f64],
    v2___micrograd_out: &mut [::core::primitive::f64],
    v3___micrograd_out: &mut [::core::primitive::f64],
    v4___micrograd_out: &mut [::core::primitive::f64],
    v5___micrograd_out: &mut [::core::primitive::f64],
    v6___micrograd_out: &mut [::core::primitive::f64],
    v7___micrograd_out: &mut [::core::primitive::f64],
) {
    if v0___micrograd_out.len() != __micrograd_out.len() {
        ::core::panic!(
            "____sub_into_jvp_lanes: the tangent `v0___micrograd_out` has {} entries but `__micrograd_out` has {}; they must have the same length",
            v0___micrograd_out.len(), __micrograd_out.len()
        );
    }
    if v1___micrograd_out.len() != __micrograd_out.len() {
        ::core::panic!(
            "____sub_into_jvp_lanes: the tangent `v1___micrograd_out` has {} entries but `__micrograd_out` has {}; they must have the same length",
            v1___micrograd_out.len(), __micrograd_out.len()
        );
    }
    if v2___micrograd_out.len() != __micrograd_out.len() {
        ::core::panic!(
            "____sub_into_jvp_lanes: the tangent `v2___micrograd_out` has {} entries but `__micrograd_out` has {}; they must have the same length",
            v2___micrograd_out.len(), __micrograd_out.len()
        );
    }
    if v3___micrograd_out.len() != __micrograd_out.len() {
        ::core::panic!(
            "____sub_into_jvp_lanes: the tangent `v3___micrograd_out` has {} entries but `__micrograd_out` has {}; they must have the same length",
            v3___micrograd_out.len(), __micrograd_out.len()
        );
    }
    if v4___micrograd_out.len() != __micrograd_out.len() {
        ::core::panic!(
            "____sub_into_jvp_lanes: the tangent `v4___micrograd_out` has {} entries but `__micrograd_out` has {}; they must have the same length",
            v4___micrograd_out.len(), __micrograd_out.len()
        );
    }
    if v5___micrograd_out.len() != __micrograd_out.len() {
        ::core::panic!(
            "____sub_into_jvp_lanes: the tangent `v5___micrograd_out` has {} entries but `__micrograd_out` has {}; they must have the same length",
            v5___micrograd_out.len(), __micrograd_out.len()
        );
    }
    if v6___micrograd_out.len() != __micrograd_out.len() {
        ::core::panic!(
            "____sub_into_jvp_lanes: the tangent `v6___micrograd_out` has {} entries but `__micrograd_out` has {}; they must have the same length",
            v6___micrograd_out.len(), __micrograd_out.len()
        );
    }
    if v7___micrograd_out.len() != __micrograd_out.len() {
        ::core::panic!(
            "____sub_into_jvp_lanes: the tangent `v7___micrograd_out` has {} entries but `__micrograd_out` has {}; they must have the same length",
            v7___micrograd_out.len(), __micrograd_out.len()
        );
    }
    let mut r = [0.0_f64; M];
    let mut v0_r = [0.0_f64; M];
    let mut v1_r = [0.0_f64; M];
    let mut v2_r = [0.0_f64; M];
    let mut v3_r = [0.0_f64; M];
    let mut v4_r = [0.0_f64; M];
    let mut v5_r = [0.0_f64; M];
    let mut v6_r = [0.0_f64; M];
    let mut v7_r = [0.0_f64; M];
    for i in 0..M {
        let t0 = a[i];
        let t6 = v0_a[i];
        let t14 = v1_a[i];
        let t22 = v2_a[i];
        let t30 = v3_a[i];
        let t38 = v4_a[i];
        let t46 = v5_a[i];
        let t54 = v6_a[i];
        let t62 = v7_a[i];
        let t1 = b[i];
        let t7 = v0_b[i];
        let t15 = v1_b[i];
        let t23 = v2_b[i];
        let t31 = v3_b[i];
        let t39 = v4_b[i];
        let t47 = v5_b[i];
        let t55 = v6_b[i];
        let t63 = v7_b[i];
        let t2 = t0 * t1;
        let t8 = t6 * t1;
        let t9 = t7 * t0;
        let t10 = t8 + t9;
        let t16 = t14 * t1;
        let t17 = t15 * t0;
        let t18 = t16 + t17;
        let t24 = t22 * t1;
        let t25 = t23 * t0;
        let t26 = t24 + t25;
        let t32 = t30 * t1;
        let t33 = t31 * t0;
        let t34 = t32 + t33;
        let t40 = t38 * t1;
        let t41 = t39 * t0;
        let t42 = t40 + t41;
        let t48 = t46 * t1;
        let t49 = t47 * t0;
        let t50 = t48 + t49;
        let t56 = t54 * t1;
        let t57 = t55 * t0;
        let t58 = t56 + t57;
        let t64 = t62 * t1;
        let t65 = t63 * t0;
        let t66 = t64 + t65;
        let t3 = b[i];
        let t11 = v0_b[i];
        let t19 = v1_b[i];
        let t27 = v2_b[i];
        let t35 = v3_b[i];
        let t43 = v4_b[i];
        let t51 = v5_b[i];
        let t59 = v6_b[i];
        let t67 = v7_b[i];
        let t4 = t2 - t3;
        let t12 = t10 - t11;
        let t20 = t18 - t19;
        let t28 = t26 - t27;
        let t36 = t34 - t35;
        let t44 = t42 - t43;
        let t52 = t50 - t51;
        let t60 = t58 - t59;
        let t68 = t66 - t67;
        r[i] = t4;
        v0_r[i] = t12;
        v1_r[i] = t20;
        v2_r[i] = t28;
        v3_r[i] = t36;
        v4_r[i] = t44;
        v5_r[i] = t52;
        v6_r[i] = t60;
        v7_r[i] = t68;
    }
    for __mg_k in 0..M {
        let t5 = r[__mg_k];
        let t13 = v0_r[__mg_k];
        let t21 = v1_r[__mg_k];
        let t29 = v2_r[__mg_k];
        let t37 = v3_r[__mg_k];
        let t45 = v4_r[__mg_k];
        let t53 = v5_r[__mg_k];
        let t61 = v6_r[__mg_k];
        let t69 = v7_r[__mg_k];
        __micrograd_out[__mg_k] = t5;
        v0___micrograd_out[__mg_k] = t13;
        v1___micrograd_out[__mg_k] = t21;
        v2___micrograd_out[__mg_k] = t29;
        v3___micrograd_out[__mg_k] = t37;
        v4___micrograd_out[__mg_k] = t45;
        v5___micrograd_out[__mg_k] = t53;
        v6___micrograd_out[__mg_k] = t61;
        v7___micrograd_out[__mg_k] = t69;
    }
}
#[doc(hidden)]
#[allow(dead_code, unused_parens, clippy::all)]
#[inline]
fn ____sub_into_jvp_lanes4(
    a: &[::core::primitive::f64; M],
    v0_a: &[::core::primitive::f64; M],
    v1_a: &[::core::primitive::f64; M],
    v2_a: &[::core::primitive::f64; M],
    v3_a: &[::core::primitive::f64; M],
    b: &[::core::primitive::f64; M],
    v0_b: &[::core::primitive::f64; M],
    v1_b: &[::core::primitive::f64; M],
    v2_b: &[::core::primitive::f64; M],
    v3_b: &[::core::primitive::f64; M],
    __micrograd_out: &mut [::core::primitive::f64],
    v0___micrograd_out: &mut [::core::primitive::f64],
    v1___micrograd_out: &mut [::core::primitive::f64],
    v2___micrograd_out: &mut [::core::primitive::f64],
    v3___micrograd_out: &mut [::core::primitive::f64],
) {
    if v0___micrograd_out.len() != __micrograd_out.len() {
        ::core::panic!(
            "____sub_into_jvp_lanes4: the tangent `v0___micrograd_out` has {} entries but `__micrograd_out` has {}; they must have the same length",
            v0___micrograd_out.len(), __micrograd_out.len()
        );
    }
    if v1___micrograd_out.len() != __micrograd_out.len() {
        ::core::panic!(
            "____sub_into_jvp_lanes4: the tangent `v1___micrograd_out` has {} entries but `__micrograd_out` has {}; they must have the same length",
            v1___micrograd_out.len(), __micrograd_out.len()
        );
    }
    if v2___micrograd_out.len() != __micrograd_out.len() {
        ::core::panic!(
            "____sub_into_jvp_lanes4: the tangent `v2___micrograd_out` has {} entries but `__micrograd_out` has {}; they must have the same length",
            v2___micrograd_out.len(), __micrograd_out.len()
        );
    }
    if v3___micrograd_out.len() != __micrograd_out.len() {
        ::core::panic!(
            "____sub_into_jvp_lanes4: the tangent `v3___micrograd_out` has {} entries but `__micrograd_out` has {}; they must have the same length",
            v3___micrograd_out.len(), __micrograd_out.len()
        );
    }
    let mut r = [0.0_f64; M];
    let mut v0_r = [0.0_f64; M];
    let mut v1_r = [0.0_f64; M];
    let mut v2_r = [0.0_f64; M];
    let mut v3_r = [0.0_f64; M];
    for i in 0..M {
        let t0 = a[i];
        let t6 = v0_a[i];
        let t14 = v1_a[i];
        let t22 = v2_a[i];
        let t30 = v3_a[i];
        let t1 = b[i];
        let t7 = v0_b[i];
        let t15 = v1_b[i];
        let t23 = v2_b[i];
        let t31 = v3_b[i];
        let t2 = t0 * t1;
        let t8 = t6 * t1;
        let t9 = t7 * t0;
        let t10 = t8 + t9;
        let t16 = t14 * t1;
        let t17 = t15 * t0;
        let t18 = t16 + t17;
        let t24 = t22 * t1;
        let t25 = t23 * t0;
        let t26 = t24 + t25;
        let t32 = t30 * t1;
        let t33 = t31 * t0;
        let t34 = t32 + t33;
        let t3 = b[i];
        let t11 = v0_b[i];
        let t19 = v1_b[i];
        let t27 = v2_b[i];
        let t35 = v3_b[i];
        let t4 = t2 - t3;
        let t12 = t10 - t11;
        let t20 = t18 - t19;
        let t28 = t26 - t27;
        let t36 = t34 - t35;
        r[i] = t4;
        v0_r[i] = t12;
        v1_r[i] = t20;
        v2_r[i] = t28;
        v3_r[i] = t36;
    }
    for __mg_k in 0..M {
        let t5 = r[__mg_k];
        let t13 = v0_r[__mg_k];
        let t21 = v1_r[__mg_k];
        let t29 = v2_r[__mg_k];
        let t37 = v3_r[__mg_k];
        __micrograd_out[__mg_k] = t5;
        v0___micrograd_out[__mg_k] = t13;
        v1___micrograd_out[__mg_k] = t21;
        v2___micrograd_out[__mg_k] = t29;
        v3___micrograd_out[__mg_k] = t37;
    }
}
#[doc(hidden)]
#[allow(dead_code, unused_parens, clippy::all)]
#[inline]
fn ____sub_into_jvp_lanes2(
    a: &[::core::primitive::f64; M],
    v0_a: &[::core::primitive::f64; M],
    v1_a: &[::core::primitive::f64; M],
    b: &[::core::primitive::f64; M],
    v0_b: &[::core::primitive::f64; M],
    v1_b: &[::core::primitive::f64; M],
    __micrograd_out: &mut [::core::primitive::f64],
    v0___micrograd_out: &mut [::core::primitive::f64],
    v1___micrograd_out: &mut [::core::primitive::f64],
) {
    if v0___micrograd_out.len() != __micrograd_out.len() {
        ::core::panic!(
            "____sub_into_jvp_lanes2: the tangent `v0___micrograd_out` has {} entries but `__micrograd_out` has {}; they must have the same length",
            v0___micrograd_out.len(), __micrograd_out.len()
        );
    }
    if v1___micrograd_out.len() != __micrograd_out.len() {
        ::core::panic!(
            "____sub_into_jvp_lanes2: the tangent `v1___micrograd_out` has {} entries but `__micrograd_out` has {}; they must have the same length",
            v1___micrograd_out.len(), __micrograd_out.len()
        );
    }
    let mut r = [0.0_f64; M];
    let mut v0_r = [0.0_f64; M];
    let mut v1_r = [0.0_f64; M];
    for i in 0..M {
        let t0 = a[i];
        let t6 = v0_a[i];
        let t14 = v1_a[i];
        let t1 = b[i];
        let t7 = v0_b[i];
        let t15 = v1_b[i];
        let t2 = t0 * t1;
        let t8 = t6 * t1;
        let t9 = t7 * t0;
        let t10 = t8 + t9;
        let t16 = t14 * t1;
        let t17 = t15 * t0;
        let t18 = t16 + t17;
        let t3 = b[i];
        let t11 = v0_b[i];
        let t19 = v1_b[i];
        let t4 = t2 - t3;
        let t12 = t10 - t11;
        let t20 = t18 - t19;
        r[i] = t4;
        v0_r[i] = t12;
        v1_r[i] = t20;
    }
    for __mg_k in 0..M {
        let t5 = r[__mg_k];
        let t13 = v0_r[__mg_k];
        let t21 = v1_r[__mg_k];
        __micrograd_out[__mg_k] = t5;
        v0___micrograd_out[__mg_k] = t13;
        v1___micrograd_out[__mg_k] = t21;
    }
}
#[doc(hidden)]
#[allow(dead_code, unused_parens, clippy::all)]
#[inline]
fn ____sub_into_jvp_lanes1(
    a: &[::core::primitive::f64; M],
    v0_a: &[::core::primitive::f64; M],
    b: &[::core::primitive::f64; M],
    v0_b: &[::core::primitive::f64; M],
    __micrograd_out: &mut [::core::primitive::f64],
    v0___micrograd_out: &mut [::core::primitive::f64],
) {
    if v0___micrograd_out.len() != __micrograd_out.len() {
        ::core::panic!(
            "____sub_into_jvp_lanes1: the tangent `v0___micrograd_out` has {} entries but `__micrograd_out` has {}; they must have the same length",
            v0___micrograd_out.len(), __micrograd_out.len()
        );
    }
    let mut r = [0.0_f64; M];
    let mut v0_r = [0.0_f64; M];
    for i in 0..M {
        let t0 = a[i];
        let t6 = v0_a[i];
        let t1 = b[i];
        let t7 = v0_b[i];
        let t2 = t0 * t1;
        let t8 = t6 * t1;
        let t9 = t7 * t0;
        let t10 = t8 + t9;
        let t3 = b[i];
        let t11 = v0_b[i];
        let t4 = t2 - t3;
        let t12 = t10 - t11;
        r[i] = t4;
        v0_r[i] = t12;
    }
    for __mg_k in 0..M {
        let t5 = r[__mg_k];
        let t13 = v0_r[__mg_k];
        __micrograd_out[__mg_k] = t5;
        v0___micrograd_out[__mg_k] = t13;
    }
}
#[doc(hidden)]
#[allow(unused_variables, dead_code, clippy::all)]
fn ____sub_into_tangent_pullback(
    a: &[::core::primitive::f64; M],
    d_a: &mut [::core::primitive::f64],
    v_a: &[::core::primitive::f64; M],
    d_v_a: &mut [::core::primitive::f64],
    b: &[::core::primitive::f64; M],
    d_b: &mut [::core::primitive::f64],
    v_b: &[::core::primitive::f64; M],
    d_v_b: &mut [::core::primitive::f64],
    __micrograd_out: &mut [::core::primitive::f64],
    d___micrograd_out: &mut [::core::primitive::f64],
    v___micrograd_out: &mut [::core::primitive::f64],
    d_v___micrograd_out: &mut [::core::primitive::f64],
)
where
    for<'micrograd> ::micrograd_runtime::calls::Missing<
        'micrograd,
    >: ::micrograd_runtime::calls::WrittenOutputsSecondOrder,
{
    ::core::panic!(
        "`__sub_into` returns `()`, and its second order is not generated yet"
    )
}
#[allow(dead_code, unused_parens, clippy::all)]
/** The pullback (vector-Jacobian product) of [`sub`], for composing gradients by the chain rule.

 Given `seed` = ∂L/∂sub, returns the partials of the `f64` parameters and adds those of the slices into their shadows. Generated by `#[differentiable]` as a call of `__sub_into_pullback`, the function writing the same array into an output parameter.*/
fn sub_pullback(
    a: &[::core::primitive::f64; M],
    d_a: &mut [::core::primitive::f64],
    b: &[::core::primitive::f64; M],
    d_b: &mut [::core::primitive::f64],
    seed: impl ::micrograd_runtime::calls::Seed<[::core::primitive::f64; M]>,
) -> () {
    let mut __mg_value = [0.0; M];
    let mut __mg_companion: [::core::primitive::f64; M] = ::micrograd_runtime::calls::Seed::value(
        seed,
    );
    __sub_into_pullback(a, d_a, b, d_b, &mut __mg_value, &mut __mg_companion)
}
#[allow(dead_code, unused_parens, clippy::all)]
/** The value of [`sub`] and its directional derivative, by forward-mode differentiation (a Jacobian-vector product).

 Each differentiated parameter is followed by its tangent `v_..`; returns `(sub(..), ∂sub/∂x · v)`. Generated by `#[differentiable(jvp)]` as a call of `__sub_into_jvp`, the function writing the same array into an output parameter: the value is bit for bit `sub`'s.*/
fn sub_jvp(
    a: &[::core::primitive::f64; M],
    v_a: &[::core::primitive::f64; M],
    b: &[::core::primitive::f64; M],
    v_b: &[::core::primitive::f64; M],
) -> ([::core::primitive::f64; M], [::core::primitive::f64; M]) {
    let mut __mg_value = [0.0; M];
    let mut __mg_companion = [0.0; M];
    __sub_into_jvp(a, v_a, b, v_b, &mut __mg_value, &mut __mg_companion);
    (__mg_value, __mg_companion)
}
#[allow(dead_code, unused_parens, clippy::all)]
#[doc(hidden)]
fn __sub_tangent(
    a: &[::core::primitive::f64; M],
    v_a: &[::core::primitive::f64; M],
    b: &[::core::primitive::f64; M],
    v_b: &[::core::primitive::f64; M],
) -> [::core::primitive::f64; M] {
    let mut __mg_value = [0.0; M];
    let mut __mg_companion = [0.0; M];
    ____sub_into_tangent(a, v_a, b, v_b, &mut __mg_value, &mut __mg_companion);
    __mg_companion
}
#[allow(dead_code, unused_parens, clippy::all)]
/// The value of [`sub`] and its Jacobian: returns `(sub(..), rows)`, where row `i` is the gradient of output `i` over the differentiated `f64` parameters, and writes each differentiated slice's block (row `i` at `i * x.len()`). Generated by `#[differentiable(jacobian)]` as a call of `__sub_into_jacobian`, the function writing the same array into an output parameter: the value is bit for bit `sub`'s.
fn sub_jacobian(
    a: &[::core::primitive::f64; M],
    d_a: &mut [::core::primitive::f64],
    b: &[::core::primitive::f64; M],
    d_b: &mut [::core::primitive::f64],
) -> ([::core::primitive::f64; M], [[::core::primitive::f64; 0]; M]) {
    let mut __mg_value: [::core::primitive::f64; M] = [0.0; M];
    __sub_into_jacobian(a, d_a, b, d_b, &mut __mg_value);
    let __mg_rows: [[::core::primitive::f64; 0]; M] = [[0.0; 0]; M];
    (__mg_value, __mg_rows)
}
#[doc(hidden)]
#[allow(non_upper_case_globals, dead_code)]
const __sub_outputs: usize = M;
#[allow(clippy::needless_range_loop, dead_code)]
fn user(x: f64, a: &[f64; M]) -> f64 {
    let b = [x, x * x, 1.0];
    let h: [f64; M] = sub(a, &b);
    h[0] + h[1] * h[2]
}
/** The value of [`user`] and its gradient, by reverse-mode differentiation.

 Returns `(user(..), ∂user/∂x)`, and adds `∂user/∂a` into `d_a` (zero the shadows first: like micrograd's `+=`, it accumulates). Generated by `#[differentiable]`: the value is bit for bit `user`'s.*/
#[allow(dead_code, unused_parens, clippy::all)]
fn user_grad(
    x: ::core::primitive::f64,
    a: &[::core::primitive::f64; M],
    d_a: &mut [::core::primitive::f64; M],
) -> (::core::primitive::f64, ::core::primitive::f64) {
    let t0 = x * x;
    let mut b = [0.0_f64; 3];
    b[0] = x;
    b[1] = t0;
    b[2] = 1.0;
    let mut h = [0.0_f64; M];
    for __mg_output in 0..M {
        let t1 = sub(a, &b)[__mg_output];
        h[__mg_output] = t1;
    }
    let t2 = h[0];
    let t3 = h[1];
    let t4 = h[2];
    let t5 = t3 * t4;
    let t6 = t2 + t5;
    let mut d_b = [0.0; 3];
    let mut d_h = [0.0; M];
    let d_t6 = 1.0_f64;
    let d_t3 = d_t6 * h[2];
    let d_t4 = d_t6 * h[1];
    d_h[2] += d_t4;
    d_h[1] += d_t3;
    d_h[0] += d_t6;
    for __mg_output in (0..M).rev() {
        let d_t1 = d_h[__mg_output];
        sub_pullback(
            a,
            &mut d_a[..],
            &b,
            &mut d_b,
            ::micrograd_runtime::calls::ByCaller(
                ::micrograd_runtime::calls::unit(__mg_output, d_t1, 0.0),
            ),
        );
    }
    d_b[2] = 0.0;
    let d_t0 = d_b[1];
    d_b[1] = 0.0;
    let mut d_x = d_b[0];
    d_b[0] = 0.0;
    d_x += d_t0 * x;
    d_x += d_t0 * x;
    (t6, d_x)
}
/** The pullback (vector-Jacobian product) of [`user`], for composing gradients by the chain rule.

 Given `seed` = ∂L/∂user, returns `seed · ∂user/∂x`, and adds `seed · ∂user/∂a` into `d_a` (pass `&mut []` to skip one). Generated by `#[differentiable]`; calls between `#[differentiable]` functions go through it.*/
#[allow(dead_code, unused_parens, clippy::all)]
fn user_pullback(
    x: ::core::primitive::f64,
    a: &[::core::primitive::f64; M],
    d_a: &mut [::core::primitive::f64],
    seed: impl ::micrograd_runtime::calls::Seed<::core::primitive::f64>,
) -> ::core::primitive::f64 {
    let seed = ::micrograd_runtime::calls::Seed::value(seed);
    if !d_a.is_empty() && d_a.len() != a.len() {
        ::core::panic!(
            "user_pullback: the shadow `d_a` has {} entries but `a` has {}; they must have the same length",
            d_a.len(), a.len()
        );
    }
    let t0 = x * x;
    let mut b = [0.0_f64; 3];
    b[0] = x;
    b[1] = t0;
    b[2] = 1.0;
    let mut h = [0.0_f64; M];
    for __mg_output in 0..M {
        let t1 = sub(a, &b)[__mg_output];
        h[__mg_output] = t1;
    }
    let t2 = h[0];
    let t3 = h[1];
    let t4 = h[2];
    let t5 = t3 * t4;
    let t6 = t2 + t5;
    let mut d_b = [0.0; 3];
    let mut d_h = [0.0; M];
    let d_t6 = seed;
    let d_t3 = d_t6 * h[2];
    let d_t4 = d_t6 * h[1];
    d_h[2] += d_t4;
    d_h[1] += d_t3;
    d_h[0] += d_t6;
    for __mg_output in (0..M).rev() {
        let d_t1 = d_h[__mg_output];
        sub_pullback(
            a,
            if d_a.is_empty() { &mut [] } else { &mut d_a[..] },
            &b,
            &mut d_b,
            ::micrograd_runtime::calls::ByCaller(
                ::micrograd_runtime::calls::unit(__mg_output, d_t1, 0.0),
            ),
        );
    }
    d_b[2] = 0.0;
    let d_t0 = d_b[1];
    d_b[1] = 0.0;
    let mut d_x = d_b[0];
    d_b[0] = 0.0;
    d_x += d_t0 * x;
    d_x += d_t0 * x;
    d_x
}
#[doc(hidden)]
#[allow(unused_variables, dead_code, clippy::all)]
fn __user_tangent(
    x: ::core::primitive::f64,
    v_x: ::core::primitive::f64,
    a: &[::core::primitive::f64; M],
    v_a: &[::core::primitive::f64; M],
) -> ::core::primitive::f64
where
    for<'micrograd> ::micrograd_runtime::calls::Missing<
        'micrograd,
    >: ::micrograd_runtime::calls::BuiltWithJvp,
{
    ::core::panic!(
        "`user` is built without `jvp`; add it to its `#[differentiable(..)]`"
    )
}
#[doc(hidden)]
#[allow(unused_variables, dead_code, clippy::all)]
fn __user_tangent_pullback(
    x: ::core::primitive::f64,
    v_x: ::core::primitive::f64,
    a: &[::core::primitive::f64; M],
    d_a: &mut [::core::primitive::f64],
    v_a: &[::core::primitive::f64; M],
    d_v_a: &mut [::core::primitive::f64],
    seed: impl ::micrograd_runtime::calls::Seed<::core::primitive::f64>,
) -> (::core::primitive::f64, ::core::primitive::f64) {
    ::core::panic!(
        "`user` is built without `hvp`; add it to its `#[differentiable(..)]`"
    )
}
#[allow(clippy::needless_range_loop, dead_code)]
fn stepped(x: f64, a: &[f64; M]) -> f64 {
    let mut h = [x; M];
    h = sub(&h, a);
    h[0] * h[2]
}
/** The value of [`stepped`] and its gradient, by reverse-mode differentiation.

 Returns `(stepped(..), ∂stepped/∂x)`, and adds `∂stepped/∂a` into `d_a` (zero the shadows first: like micrograd's `+=`, it accumulates). Generated by `#[differentiable]`: the value is bit for bit `stepped`'s.*/
#[allow(dead_code, unused_parens, clippy::all)]
fn stepped_grad(
    x: ::core::primitive::f64,
    a: &[::core::primitive::f64; M],
    d_a: &mut [::core::primitive::f64; M],
) -> (::core::primitive::f64, ::core::primitive::f64) {
    let mut h = [0.0_f64; M];
    for __mg_entry in 0..h.len() {
        h[__mg_entry] = x;
    }
    let mut __mg_copied = [0.0_f64; M];
    for i in 0..M {
        let t0 = h[i];
        __mg_copied[i] = t0;
    }
    for __mg_output in 0..h.len() {
        let t1 = sub(&__mg_copied, a)[__mg_output];
        h[__mg_output] = t1;
    }
    let t2 = h[0];
    let t3 = h[2];
    let t4 = t2 * t3;
    let mut d_h = [0.0; M];
    let mut d___mg_copied = [0.0; M];
    let d_t4 = 1.0_f64;
    let d_t2 = d_t4 * h[2];
    let d_t3 = d_t4 * h[0];
    d_h[2] += d_t3;
    d_h[0] += d_t2;
    for __mg_output in (0..h.len()).rev() {
        let d_t1 = d_h[__mg_output];
        d_h[__mg_output] = 0.0;
        sub_pullback(
            &__mg_copied,
            &mut d___mg_copied,
            a,
            &mut d_a[..],
            ::micrograd_runtime::calls::ByCaller(
                ::micrograd_runtime::calls::unit(__mg_output, d_t1, 0.0),
            ),
        );
    }
    for i in (0..M).rev() {
        let d_t0 = d___mg_copied[i];
        d___mg_copied[i] = 0.0;
        d_h[i] += d_t0;
    }
    let mut d_x = 0.0;
    for __mg_entry in (0..h.len()).rev() {
        d_x += d_h[__mg_entry];
        d_h[__mg_entry] = 0.0;
    }
    (t4, d_x)
}
/** The pullback (vector-Jacobian product) of [`stepped`], for composing gradients by the chain rule.

 Given `seed` = ∂L/∂stepped, returns `seed · ∂stepped/∂x`, and adds `seed · ∂stepped/∂a` into `d_a` (pass `&mut []` to skip one). Generated by `#[differentiable]`; calls between `#[differentiable]` functions go through it.*/
#[allow(dead_code, unused_parens, clippy::all)]
fn stepped_pullback(
    x: ::core::primitive::f64,
    a: &[::core::primitive::f64; M],
    d_a: &mut [::core::primitive::f64],
    seed: impl ::micrograd_runtime::calls::Seed<::core::primitive::f64>,
) -> ::core::primitive::f64 {
    let seed = ::micrograd_runtime::calls::Seed::value(seed);
    if !d_a.is_empty() && d_a.len() != a.len() {
        ::core::panic!(
            "stepped_pullback: the shadow `d_a` has {} entries but `a` has {}; they must have the same length",
            d_a.len(), a.len()
        );
    }
    let mut h = [0.0_f64; M];
    for __mg_entry in 0..h.len() {
        h[__mg_entry] = x;
    }
    let mut __mg_copied = [0.0_f64; M];
    for i in 0..M {
        let t0 = h[i];
        __mg_copied[i] = t0;
    }
    for __mg_output in 0..h.len() {
        let t1 = sub(&__mg_copied, a)[__mg_output];
        h[__mg_output] = t1;
    }
    let t2 = h[0];
    let t3 = h[2];
    let t4 = t2 * t3;
    let mut d_h = [0.0; M];
    let mut d___mg_copied = [0.0; M];
    let d_t4 = seed;
    let d_t2 = d_t4 * h[2];
    let d_t3 = d_t4 * h[0];
    d_h[2] += d_t3;
    d_h[0] += d_t2;
    for __mg_output in (0..h.len()).rev() {
        let d_t1 = d_h[__mg_output];
        d_h[__mg_output] = 0.0;
        sub_pullback(
            &__mg_copied,
            &mut d___mg_copied,
            a,
            if d_a.is_empty() { &mut [] } else { &mut d_a[..] },
            ::micrograd_runtime::calls::ByCaller(
                ::micrograd_runtime::calls::unit(__mg_output, d_t1, 0.0),
            ),
        );
    }
    for i in (0..M).rev() {
        let d_t0 = d___mg_copied[i];
        d___mg_copied[i] = 0.0;
        d_h[i] += d_t0;
    }
    let mut d_x = 0.0;
    for __mg_entry in (0..h.len()).rev() {
        d_x += d_h[__mg_entry];
        d_h[__mg_entry] = 0.0;
    }
    d_x
}
#[doc(hidden)]
#[allow(unused_variables, dead_code, clippy::all)]
fn __stepped_tangent(
    x: ::core::primitive::f64,
    v_x: ::core::primitive::f64,
    a: &[::core::primitive::f64; M],
    v_a: &[::core::primitive::f64; M],
) -> ::core::primitive::f64
where
    for<'micrograd> ::micrograd_runtime::calls::Missing<
        'micrograd,
    >: ::micrograd_runtime::calls::BuiltWithJvp,
{
    ::core::panic!(
        "`stepped` is built without `jvp`; add it to its `#[differentiable(..)]`"
    )
}
#[doc(hidden)]
#[allow(unused_variables, dead_code, clippy::all)]
fn __stepped_tangent_pullback(
    x: ::core::primitive::f64,
    v_x: ::core::primitive::f64,
    a: &[::core::primitive::f64; M],
    d_a: &mut [::core::primitive::f64],
    v_a: &[::core::primitive::f64; M],
    d_v_a: &mut [::core::primitive::f64],
    seed: impl ::micrograd_runtime::calls::Seed<::core::primitive::f64>,
) -> (::core::primitive::f64, ::core::primitive::f64) {
    ::core::panic!(
        "`stepped` is built without `hvp`; add it to its `#[differentiable(..)]`"
    )
}

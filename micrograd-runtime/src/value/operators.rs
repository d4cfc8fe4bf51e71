//! `Value` arithmetic: `+ - * /` with `Value`, `&Value` and `f64` on either side, `-x`, `op=`,
//! sums, conversions, and `Debug`.

use super::{Op, Value};
use std::fmt;

/// Shows data and grad, like micrograd's `Value(data=.., grad=..)`; never the inputs, which
/// could be a million levels deep.
impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let node = self.0.borrow();
        let mut s = f.debug_struct("Value");
        s.field("data", &node.data).field("grad", &node.grad);
        if let Some(label) = &node.label {
            s.field("label", label);
        }
        if let Some(op) = node.op {
            s.field("op", &op.to_string());
        }
        s.finish()
    }
}

/// A leaf, so that numbers mix with values in arithmetic.
impl From<f64> for Value {
    fn from(data: f64) -> Value {
        Value::new(data)
    }
}

/// The same node (a cheap clone), so that `&Value` works wherever `Into<Value>` is asked.
impl From<&Value> for Value {
    fn from(value: &Value) -> Value {
        value.clone()
    }
}

/// Sums from a zero leaf, like Python's `sum` over micrograd values.
///
/// ```
/// use micrograd_runtime::Value;
/// let xs = [Value::new(1.0), Value::new(2.0)];
/// assert_eq!(xs.iter().sum::<Value>().data(), 3.0);
/// ```
impl<'a> std::iter::Sum<&'a Value> for Value {
    fn sum<I: Iterator<Item = &'a Value>>(iter: I) -> Value {
        iter.fold(Value::new(0.0), |total, x| total + x)
    }
}

impl std::iter::Sum<Value> for Value {
    fn sum<I: Iterator<Item = Value>>(iter: I) -> Value {
        iter.fold(Value::new(0.0), |total, x| total + x)
    }
}

impl std::ops::Neg for &Value {
    type Output = Value;
    fn neg(self) -> Value {
        self.unary(Op::Neg)
    }
}

impl std::ops::Neg for Value {
    type Output = Value;
    fn neg(self) -> Value {
        self.unary(Op::Neg)
    }
}

/// Implements a binary operator for `Value` and `&Value` on the left with anything that converts
/// to a `Value` on the right (`Value`, `&Value`, `f64`), for `f64` on the left, and its `op=`.
/// A number becomes a leaf, as micrograd wraps it in a `Value`.
macro_rules! binary_operator {
    ($Trait:ident, $method:ident, $AssignTrait:ident, $assign:ident, $op:expr) => {
        impl<R: Into<Value>> std::ops::$Trait<R> for &Value {
            type Output = Value;
            fn $method(self, rhs: R) -> Value {
                self.binary($op, &rhs.into())
            }
        }
        impl<R: Into<Value>> std::ops::$Trait<R> for Value {
            type Output = Value;
            fn $method(self, rhs: R) -> Value {
                self.binary($op, &rhs.into())
            }
        }
        impl std::ops::$Trait<&Value> for f64 {
            type Output = Value;
            fn $method(self, rhs: &Value) -> Value {
                Value::new(self).binary($op, rhs)
            }
        }
        impl std::ops::$Trait<Value> for f64 {
            type Output = Value;
            fn $method(self, rhs: Value) -> Value {
                Value::new(self).binary($op, &rhs)
            }
        }
        impl<R: Into<Value>> std::ops::$AssignTrait<R> for Value {
            fn $assign(&mut self, rhs: R) {
                *self = self.binary($op, &rhs.into());
            }
        }
    };
}

binary_operator!(Add, add, AddAssign, add_assign, Op::Add);
binary_operator!(Sub, sub, SubAssign, sub_assign, Op::Sub);
binary_operator!(Mul, mul, MulAssign, mul_assign, Op::Mul);
binary_operator!(Div, div, DivAssign, div_assign, Op::Div);

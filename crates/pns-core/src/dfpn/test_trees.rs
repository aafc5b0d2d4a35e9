//! Hand-made AND/OR trees for the unit tests of the searches in this
//! folder: `W` is a leaf the attacker wins, `L` one it loses, `( ... )` an
//! inner node; the root is an OR node and kinds alternate.

use crate::problem::{Problem, Status};
use crate::rng::splitmix64;

#[derive(Clone, Debug)]
pub enum Tree {
    Win,
    Loss,
    Node(Vec<Tree>),
}

impl Tree {
    pub fn parse(s: &str) -> Tree {
        let toks: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
        let mut i = 0;
        let t = Self::node(&toks, &mut i);
        assert_eq!(i, toks.len(), "trailing text in {s}");
        t
    }

    /// The tree's value by brute force: does the attacker win, with `or`
    /// the root's kind?
    pub fn or_wins(&self, or: bool) -> bool {
        match self {
            Tree::Win => true,
            Tree::Loss => false,
            Tree::Node(k) if or => k.iter().any(|c| c.or_wins(false)),
            Tree::Node(k) => k.iter().all(|c| c.or_wins(true)),
        }
    }

    fn node(t: &[char], i: &mut usize) -> Tree {
        let c = t[*i];
        *i += 1;
        match c {
            'W' => Tree::Win,
            'L' => Tree::Loss,
            '(' => {
                let mut kids = Vec::new();
                while t[*i] != ')' {
                    kids.push(Self::node(t, i));
                }
                *i += 1;
                Tree::Node(kids)
            }
            _ => panic!("unexpected '{c}'"),
        }
    }
}

/// The [`Problem`] methods that a wrapper of a [`TreeProblem`] (its field
/// `inner`) passes on unchanged, by name: `is_or`, `evaluate`, `generate`,
/// `undo`, `key`.
macro_rules! tree_delegate {
    ($($name:ident),*) => { $( tree_delegate!(@ $name); )* };
    (@ is_or) => { fn is_or(&self) -> bool { self.inner.is_or() } };
    (@ evaluate) => {
        fn evaluate(&self) -> $crate::problem::Status { self.inner.evaluate() }
    };
    (@ generate) => {
        fn generate(&self, out: &mut Vec<usize>) { self.inner.generate(out) }
    };
    (@ undo) => { fn undo(&mut self) { self.inner.undo() } };
    (@ key) => { fn key(&self) -> u64 { self.inner.key() } };
}
pub(crate) use tree_delegate;

/// A [`Tree`] as a search problem (no transpositions).
pub struct TreeProblem<'a> {
    path: Vec<(&'a Tree, u64)>,
}

impl<'a> TreeProblem<'a> {
    pub fn new(root: &'a Tree) -> Self {
        TreeProblem {
            path: vec![(root, 0x1234_5678)],
        }
    }

    fn top(&self) -> &'a Tree {
        self.path.last().expect("root").0
    }
}

impl Problem for TreeProblem<'_> {
    type Move = usize;

    fn is_or(&self) -> bool {
        self.path.len() % 2 == 1
    }

    fn evaluate(&self) -> Status {
        match self.top() {
            Tree::Win => Status::Proven,
            Tree::Loss => Status::Disproven,
            Tree::Node(_) => Status::Unknown,
        }
    }

    fn generate(&self, out: &mut Vec<usize>) {
        if let Tree::Node(k) = self.top() {
            out.extend(0..k.len());
        }
    }

    fn play(&mut self, m: usize) {
        let (t, key) = *self.path.last().expect("root");
        let Tree::Node(k) = t else {
            panic!("play at a leaf")
        };
        let ck = splitmix64(key ^ (m as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        self.path.push((&k[m], ck));
    }

    fn undo(&mut self) {
        self.path.pop();
    }

    fn key(&self) -> u64 {
        self.path.last().expect("root").1
    }
}

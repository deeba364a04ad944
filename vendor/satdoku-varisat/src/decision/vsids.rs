//! The VSIDS branching heuristic.
//!
//! The VSIDS (Variable State Independent Decaying Sum) branching heuristic keeps an activity value
//! for each variable. For each conflict some variables are bumped, which means that their activity
//! is increased by a constant. After bumping some variables, the activity of all variables is
//! decayed by multiplying it with a constant below 1.
//!
//! When a decision is made, it branches on the vairable with the highest activity among the
//! unassigned variables.
//!
//! There are a few variants that differ in which variables are bumped. Varisat follows Minisat (and
//! others) by bumping all variables in the conflict clause and all variables resolved on during
//! conflict analysis.

use ordered_float::OrderedFloat;

use varisat_formula::{lit::LitIdx, Var};

use crate::config::SolverConfig;

/// The VSIDS branching heuristic.
///
/// As an optimization instead of decaying all activities each conflict, the bump value is divided
/// by the decay factor each conflict. When this would cause a value to overflow all activities and
/// the bump value are scaled down. Apart from a scaling factor that is the same for all involved
/// values, this is equivalent to the naive implementation. As we only care about the order of
/// activities we can ignore the scaling factor.
pub struct Vsids {
    /// The activity of each variable.
    activity: Vec<OrderedFloat<f32>>,
    /// A binary heap of the variables, each with a copy of its activity: a sift compares the
    /// activities of the entries it passes without loading them from `activity`, one place in
    /// memory for each variable (on satdoku's big grids most of those loads missed the cache).
    heap: Vec<HeapEntry>,
    /// The position in the binary heap for each variable. A `LitIdx` (which counts every
    /// variable there can be) rather than a `usize`: 8 bytes an entry instead of 16, so that the
    /// positions each sift writes take fewer cache lines.
    position: Vec<Option<LitIdx>>,
    /// The value to add on bumping.
    bump: f32,
    /// The inverse of the decay factor.
    inv_decay: f32,
}

/// A variable in the heap and its activity, kept equal to its entry in [`Vsids::activity`].
#[derive(Copy, Clone)]
struct HeapEntry {
    activity: f32,
    var: Var,
}

impl Default for Vsids {
    fn default() -> Vsids {
        Vsids {
            activity: vec![],
            heap: vec![],
            position: vec![],
            bump: 1.0,
            inv_decay: 1.0 / SolverConfig::default().vsids_decay,
        }
    }
}

impl Vsids {
    /// Update structures for a new variable count.
    pub fn set_var_count(&mut self, count: usize) {
        self.activity.resize(count, OrderedFloat(0.0));
        self.position.resize(count, None);
    }

    /// Rescale activities if any value exceeds this value.
    fn rescale_limit() -> f32 {
        std::f32::MAX / 16.0
    }

    /// Change the decay factor.
    pub fn set_decay(&mut self, decay: f32) {
        assert!(decay < 1.0);
        assert!(decay > 1.0 / 16.0);
        self.inv_decay = 1.0 / decay;
    }

    /// Bump a variable by increasing its activity.
    pub fn bump(&mut self, var: Var) {
        let rescale = {
            let value = &mut self.activity[var.index()];
            value.0 += self.bump;
            value.0 >= Self::rescale_limit()
        };
        if rescale {
            self.rescale();
        }
        if let Some(pos) = self.heap_position(var) {
            self.heap[pos].activity = self.activity[var.index()].0;
            self.sift_up(pos);
        }
    }

    /// Set a variable's activity (the first conflict bumps by 1.0), keeping the heap in order.
    pub fn set_activity(&mut self, var: Var, activity: f32) {
        self.activity[var.index()] = OrderedFloat(activity.max(0.0).min(Self::rescale_limit()));
        if let Some(pos) = self.heap_position(var) {
            self.heap[pos].activity = self.activity[var.index()].0;
            self.sift_up(pos);
            if let Some(pos) = self.heap_position(var) {
                self.sift_down(pos);
            }
        }
    }

    /// Decay all variable activities.
    pub fn decay(&mut self) {
        self.bump *= self.inv_decay;
        if self.bump >= Self::rescale_limit() {
            self.rescale();
        }
    }

    /// Rescale all values to avoid an overflow.
    fn rescale(&mut self) {
        let rescale_factor = 1.0 / Self::rescale_limit();
        for activity in &mut self.activity {
            activity.0 *= rescale_factor;
        }
        // The same product of the same values: the copies stay equal.
        for entry in &mut self.heap {
            entry.activity *= rescale_factor;
        }
        self.bump *= rescale_factor;
    }

    /// Reset the activity of an unavailable variable to zero.
    ///
    /// Panics if the variable is still available.
    pub fn reset(&mut self, var: Var) {
        assert!(self.position[var.index()].is_none());
        self.activity[var.index()] = OrderedFloat(0.0);
    }

    /// Remove a variable from the heap if present.
    pub fn make_unavailable(&mut self, var: Var) {
        if let Some(position) = self.heap_position(var) {
            self.heap.swap_remove(position);
            if self.heap.len() > position {
                let moved_var = self.heap[position].var;
                self.position[moved_var.index()] = Some(position as LitIdx);
                self.sift_down(position);
            }
            self.position[var.index()] = None;
        }
    }

    /// The variable's position in the heap, if it is in it.
    fn heap_position(&self, var: Var) -> Option<usize> {
        self.position[var.index()].map(|pos| pos as usize)
    }

    /// Insert a variable into the heap if not already present.
    pub fn make_available(&mut self, var: Var) {
        if self.position[var.index()].is_none() {
            let position = self.heap.len();
            self.position[var.index()] = Some(position as LitIdx);
            self.heap.push(HeapEntry {
                activity: self.activity[var.index()].0,
                var,
            });
            self.sift_up(position);
        }
    }

    /// Move a variable closer to the root until the heap property is satisfied.
    ///
    /// The variables it passes move down one place each and the variable is written once, where
    /// it stops: the heap ends as with a swap per step, with fewer writes.
    fn sift_up(&mut self, mut pos: usize) {
        let entry = self.heap[pos];
        while pos > 0 {
            let parent_pos = (pos - 1) / 2;
            let parent = self.heap[parent_pos];
            if parent.activity >= entry.activity {
                break;
            }
            self.heap[pos] = parent;
            self.position[parent.var.index()] = Some(pos as LitIdx);
            pos = parent_pos;
        }
        self.heap[pos] = entry;
        self.position[entry.var.index()] = Some(pos as LitIdx);
    }

    /// Move a variable away from the root until the heap property is satisfied.
    ///
    /// As in [`sift_up`](Self::sift_up), the variable is written once, where it stops. Activities
    /// are never NaN, so comparing them as `f32` orders them as `OrderedFloat` does.
    fn sift_down(&mut self, mut pos: usize) {
        let entry = self.heap[pos];
        let activity = entry.activity;
        let len = self.heap.len();
        loop {
            let mut largest_pos = pos;
            let mut largest_activity = activity;

            let left_pos = pos * 2 + 1;
            if left_pos < len {
                let left_activity = self.heap[left_pos].activity;
                if largest_activity < left_activity {
                    largest_pos = left_pos;
                    largest_activity = left_activity;
                }
            }

            let right_pos = pos * 2 + 2;
            if right_pos < len {
                let right_activity = self.heap[right_pos].activity;
                if largest_activity < right_activity {
                    largest_pos = right_pos;
                }
            }

            if largest_pos == pos {
                break;
            }

            let largest = self.heap[largest_pos];
            self.heap[pos] = largest;
            self.position[largest.var.index()] = Some(pos as LitIdx);
            pos = largest_pos;
        }
        self.heap[pos] = entry;
        self.position[entry.var.index()] = Some(pos as LitIdx);
    }
}

impl Iterator for Vsids {
    type Item = Var;

    fn next(&mut self) -> Option<Var> {
        if self.heap.is_empty() {
            None
        } else {
            let var = self.heap.swap_remove(0).var;
            if !self.heap.is_empty() {
                let top_var = self.heap[0].var;
                self.position[top_var.index()] = Some(0);
                self.sift_down(0);
            }
            self.position[var.index()] = None;
            Some(var)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use varisat_formula::var;

    #[test]
    fn rescale_bump() {
        let mut vsids = Vsids::default();
        vsids.set_var_count(4);
        vsids.set_decay(1.0 / 8.0);

        for _ in 0..4 {
            vsids.next();
        }

        for i in 0..4 {
            for _ in 0..i {
                vsids.bump(Var::from_index(i));
            }
        }

        for _ in 0..41 {
            vsids.decay();
        }

        for _ in 0..30 {
            vsids.bump(var!(4));
        }

        // Decay is a power of two so these values are exact
        #[allow(clippy::float_cmp)]
        {
            assert_eq!(vsids.activity[0].0, 0.0);
            assert_eq!(vsids.activity[2].0, vsids.activity[1].0 * 2.0);
            assert!(vsids.activity[3] > vsids.activity[2]);
        }
    }

    #[test]
    fn rescale_decay() {
        let mut vsids = Vsids::default();
        vsids.set_var_count(4);
        vsids.set_decay(1.0 / 8.0);

        for _ in 0..4 {
            vsids.next();
        }

        for i in 0..4 {
            for _ in 0..i {
                vsids.bump(Var::from_index(i));
            }
        }

        for _ in 0..60 {
            vsids.decay();
        }

        // Decay is a power of two so these values are exact
        #[allow(clippy::float_cmp)]
        {
            assert_eq!(vsids.activity[0].0, 0.0);
            assert_eq!(vsids.activity[2].0, vsids.activity[1].0 * 2.0);
            assert_eq!(vsids.activity[3].0, vsids.activity[1].0 * 3.0);
        }
    }

    /// Upstream's heap: variables alone, each sift loading the activities from the table.
    struct UpstreamHeap {
        heap: Vec<Var>,
        position: Vec<Option<usize>>,
    }

    impl UpstreamHeap {
        fn sift_up(&mut self, activity: &[OrderedFloat<f32>], mut pos: usize) {
            let var = self.heap[pos];
            while pos > 0 {
                let parent_pos = (pos - 1) / 2;
                let parent_var = self.heap[parent_pos];
                if activity[parent_var.index()] >= activity[var.index()] {
                    break;
                }
                self.position[var.index()] = Some(parent_pos);
                self.heap[parent_pos] = var;
                self.position[parent_var.index()] = Some(pos);
                self.heap[pos] = parent_var;
                pos = parent_pos;
            }
        }

        fn sift_down(&mut self, activity: &[OrderedFloat<f32>], mut pos: usize) {
            let var = self.heap[pos];
            loop {
                let mut largest_pos = pos;
                let mut largest_var = var;
                for child_pos in [pos * 2 + 1, pos * 2 + 2] {
                    if child_pos < self.heap.len() {
                        let child_var = self.heap[child_pos];
                        if activity[largest_var.index()] < activity[child_var.index()] {
                            largest_pos = child_pos;
                            largest_var = child_var;
                        }
                    }
                }
                if largest_pos == pos {
                    return;
                }
                self.position[var.index()] = Some(largest_pos);
                self.heap[largest_pos] = var;
                self.position[largest_var.index()] = Some(pos);
                self.heap[pos] = largest_var;
                pos = largest_pos;
            }
        }
    }

    #[test]
    fn the_heap_moves_as_upstream_with_equal_copies_of_the_activities() {
        let count = 50;
        let mut vsids = Vsids::default();
        vsids.set_var_count(count);
        // A fast decay, so that the activities are rescaled often.
        vsids.set_decay(1.0 / 15.0);
        let mut upstream = UpstreamHeap {
            heap: vec![],
            position: vec![None; count],
        };
        let mut next = 12345u64;
        let mut random = move |n: u64| {
            next = next
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (next >> 33) % n
        };
        for _ in 0..20000 {
            let var = Var::from_index(random(count as u64) as usize);
            match random(6) {
                0 => {
                    vsids.make_unavailable(var);
                    if let Some(pos) = upstream.position[var.index()] {
                        upstream.heap.swap_remove(pos);
                        if upstream.heap.len() > pos {
                            let moved = upstream.heap[pos];
                            upstream.position[moved.index()] = Some(pos);
                            upstream.sift_down(&vsids.activity, pos);
                        }
                        upstream.position[var.index()] = None;
                    }
                }
                1 => {
                    vsids.make_available(var);
                    if upstream.position[var.index()].is_none() {
                        upstream.position[var.index()] = Some(upstream.heap.len());
                        upstream.heap.push(var);
                        upstream.sift_up(&vsids.activity, upstream.heap.len() - 1);
                    }
                }
                2 => vsids.decay(),
                3 => {
                    vsids.set_activity(var, random(1000) as f32 / 100.0);
                    if let Some(pos) = upstream.position[var.index()] {
                        upstream.sift_up(&vsids.activity, pos);
                        let pos = upstream.position[var.index()].unwrap();
                        upstream.sift_down(&vsids.activity, pos);
                    }
                }
                4 => {
                    let top = vsids.next();
                    assert_eq!(top, upstream.heap.first().copied());
                    if !upstream.heap.is_empty() {
                        upstream.heap.swap_remove(0);
                        if !upstream.heap.is_empty() {
                            let moved = upstream.heap[0];
                            upstream.position[moved.index()] = Some(0);
                            upstream.sift_down(&vsids.activity, 0);
                        }
                        upstream.position[top.unwrap().index()] = None;
                    }
                }
                _ => {
                    vsids.bump(var);
                    if let Some(pos) = upstream.position[var.index()] {
                        upstream.sift_up(&vsids.activity, pos);
                    }
                }
            }
            let vars: Vec<Var> = vsids.heap.iter().map(|entry| entry.var).collect();
            assert_eq!(vars, upstream.heap);
            for (pos, entry) in vsids.heap.iter().enumerate() {
                assert_eq!(
                    entry.activity.to_bits(),
                    vsids.activity[entry.var.index()].0.to_bits()
                );
                assert_eq!(vsids.heap_position(entry.var), Some(pos));
            }
        }
    }

    #[test]
    fn heap_sorts() {
        let mut vsids = Vsids::default();
        vsids.set_var_count(8);

        for _ in 0..8 {
            vsids.next();
        }

        for i in 0..8 {
            for _ in 0..i {
                vsids.bump(Var::from_index(i));
            }
        }

        for i in 0..8 {
            vsids.make_available(Var::from_index((i * 5) % 8));
        }

        for i in (0..8).rev() {
            assert_eq!(vsids.next(), Some(Var::from_index(i)));
        }
        assert_eq!(vsids.next(), None);
    }

    #[test]
    fn heap_bump() {
        let mut vsids = Vsids::default();
        vsids.set_var_count(8);
        vsids.set_decay(1.0 / 8.0);

        for _ in 0..8 {
            vsids.next();
        }

        for i in 0..8 {
            for _ in 0..i {
                vsids.bump(Var::from_index(i));
            }
        }

        for i in 0..8 {
            vsids.make_available(Var::from_index((i * 5) % 8));
        }

        for i in (0..4).rev() {
            assert_eq!(vsids.next(), Some(Var::from_index(i + 4)));
        }

        vsids.decay();
        vsids.decay();

        for i in 0..8 {
            for _ in 0..(8 - i) {
                vsids.bump(Var::from_index(i));
            }
        }

        for i in 0..4 {
            assert_eq!(vsids.next(), Some(Var::from_index(i)));
        }

        assert_eq!(vsids.next(), None);
    }
}

//! A growable list with a 16-byte header, for the per-literal lists of propagation.
use std::{
    alloc::{self, Layout},
    marker::PhantomData,
    ops::{Deref, DerefMut},
    ptr::NonNull,
};

/// A `Vec<T>` for `Copy` elements whose length and capacity are `u32`s: its header is 16 bytes
/// where a `Vec`'s is 24.
///
/// Propagation reads the header of a literal's binary implications and of its watches for every
/// literal it propagates, and that of another literal's watches for every watch it moves; on
/// satdoku's big grids these headers (one of each per literal) are far more than the second-level
/// cache holds, and loading them was a good part of the search's time. With two-thirds of the
/// size, four headers share a cache line instead of two and two-thirds, and none straddles two.
pub struct CompactVec<T: Copy> {
    /// The elements; dangling (and well aligned) while `cap` is 0.
    ptr: NonNull<T>,
    /// The first `len` elements are initialized; `len <= cap`.
    len: u32,
    /// The number of elements allocated at `ptr`, 0 for no allocation.
    cap: u32,
    _owns: PhantomData<T>,
}

// SAFETY: a `CompactVec<T>` owns its elements as a `Vec<T>` does (no sharing of the buffer), so it
// may move to, or be shared with, another thread exactly when `T` may.
unsafe impl<T: Copy + Send> Send for CompactVec<T> {}
// SAFETY: as for `Send`; `&CompactVec<T>` gives only `&T`s.
unsafe impl<T: Copy + Sync> Sync for CompactVec<T> {}

impl<T: Copy> Default for CompactVec<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy> CompactVec<T> {
    /// An empty list, without an allocation.
    pub const fn new() -> Self {
        assert!(std::mem::size_of::<T>() > 0, "zero-sized elements");
        CompactVec {
            ptr: NonNull::dangling(),
            len: 0,
            cap: 0,
            _owns: PhantomData,
        }
    }

    /// The number of elements.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// A pointer to the first element (dangling for no allocation); valid for `len()` elements.
    #[inline(always)]
    pub fn as_ptr(&self) -> *const T {
        self.ptr.as_ptr()
    }

    /// A pointer to the first element (dangling for no allocation); valid for `len()` elements.
    #[inline(always)]
    pub fn as_mut_ptr(&mut self) -> *mut T {
        self.ptr.as_ptr()
    }

    /// Append an element.
    #[inline(always)]
    pub fn push(&mut self, value: T) {
        if self.len == self.cap {
            self.grow();
        }
        // SAFETY: after `grow`, `len < cap`, so the slot at `len` is allocated (and unused).
        unsafe { self.ptr.as_ptr().add(self.len as usize).write(value) };
        self.len += 1;
    }

    /// Double the capacity (at least 4), as `Vec` does.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let new_cap = if self.cap == 0 {
            4
        } else {
            self.cap
                .checked_mul(2)
                .expect("CompactVec capacity overflow")
        };
        let new_layout = Layout::array::<T>(new_cap as usize).expect("CompactVec too large");
        let new_ptr = if self.cap == 0 {
            // SAFETY: `new_layout` has a non-zero size (T is not zero-sized, `new_cap > 0`).
            unsafe { alloc::alloc(new_layout) }
        } else {
            let old_layout = Layout::array::<T>(self.cap as usize).unwrap();
            // SAFETY: `ptr` was allocated with `old_layout` (the layout of the current `cap`) by
            // this allocator, and the new size is non-zero and fits `isize` (`Layout::array`
            // checked it).
            unsafe { alloc::realloc(self.ptr.as_ptr() as *mut u8, old_layout, new_layout.size()) }
        };
        self.ptr = match NonNull::new(new_ptr as *mut T) {
            Some(ptr) => ptr,
            None => alloc::handle_alloc_error(new_layout),
        };
        self.cap = new_cap;
    }

    /// Keep the first `len` elements (all of them when there are fewer).
    #[inline(always)]
    pub fn truncate(&mut self, len: usize) {
        if len < self.len as usize {
            self.len = len as u32;
        }
    }

    /// Remove every element, keeping the allocation.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keep only the elements for which `keep` is true, in order (`keep` sees each element once,
    /// in order, as with `Vec::retain`). Nothing is written before the first element dropped.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        let slice = &mut **self;
        let mut kept = match slice.iter().position(|value| !keep(value)) {
            Some(first_dropped) => first_dropped,
            None => return,
        };
        for i in kept + 1..slice.len() {
            let value = slice[i];
            if keep(&value) {
                slice[kept] = value;
                kept += 1;
            }
        }
        self.truncate(kept);
    }
}

impl<T: Copy> Deref for CompactVec<T> {
    type Target = [T];

    #[inline(always)]
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` is non-null and aligned (dangling only when `len` is 0), and its first
        // `len` elements are initialized and owned by `self`, borrowed shared here.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len as usize) }
    }
}

impl<T: Copy> DerefMut for CompactVec<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, borrowed exclusively through `&mut self`.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len as usize) }
    }
}

impl<T: Copy> Clone for CompactVec<T> {
    fn clone(&self) -> Self {
        let mut copy = Self::new();
        for &value in self.iter() {
            copy.push(value);
        }
        copy
    }
}

impl<T: Copy> Drop for CompactVec<T> {
    fn drop(&mut self) {
        if self.cap > 0 {
            let layout = Layout::array::<T>(self.cap as usize).unwrap();
            // SAFETY: `ptr` was allocated by this allocator with the layout of `cap` elements; the
            // elements are `Copy`, so none needs dropping.
            unsafe { alloc::dealloc(self.ptr.as_ptr() as *mut u8, layout) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_behaves_as_a_vec() {
        assert_eq!(std::mem::size_of::<CompactVec<u64>>(), 16);
        let mut list = CompactVec::<u64>::new();
        let mut model = Vec::new();
        assert!(list.is_empty());
        for i in 0..1000u64 {
            list.push(i * 7);
            model.push(i * 7);
            if i % 97 == 0 {
                list.retain(|&x| x % 3 != 0);
                model.retain(|&x| x % 3 != 0);
            }
            if i % 301 == 0 {
                list.truncate(list.len() / 2);
                model.truncate(model.len() / 2);
            }
            assert_eq!(&list[..], &model[..]);
        }
        let copy = list.clone();
        assert_eq!(&copy[..], &model[..]);
        list[0] = 5;
        assert_eq!(copy[0], model[0]);
        list.truncate(10_000);
        assert_eq!(list.len(), model.len());
        list.clear();
        assert!(list.is_empty());
        list.push(1);
        assert_eq!(&list[..], &[1]);
        let empty = CompactVec::<u32>::new();
        assert_eq!(&empty.clone()[..], &[] as &[u32]);
    }
}

/** Mirrors {@code include/linux/spinlock.h} and {@code lockdep_assert_held()}. */
package kmodel.kernel.locking;

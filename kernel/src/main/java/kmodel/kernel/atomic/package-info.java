/**
 * Mirrors {@code include/asm-generic/bitops/}, {@code include/linux/atomic.h},
 * {@code include/linux/refcount.h} and {@code include/asm-generic/rwonce.h}. Naming: a method
 * named after a {@code _lock}/{@code _unlock}/{@code _acquire}/{@code _release} kernel operation
 * has that ordering in the kernel; in this sequentially consistent model every operation is a
 * full barrier, so the names document intent, not extra ordering.
 */
package kmodel.kernel.atomic;

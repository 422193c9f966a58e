/**
 * Object lifetimes (the model's KASAN and refcount debugging): pages, bios, requests and on-stack
 * wait entries register with the execution's {@link kmodel.kernel.lifetime.Lifetimes} tracker,
 * which reports double-release, use-after-free and ref-leak.
 */
package kmodel.kernel.lifetime;

package kmodel.kernel.sched;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The fields of this class (or this field) are not model state: the footprint audit
 * ({@link FieldAudit}) does not check them. Only for state that no step reads to decide
 * anything, such as statistics that tasks increment and only the end of a run or the
 * simulation's report reads (increments commute, so their order changes nothing a check sees).
 * Say why in {@link #value()}: the audit trusts it.
 */
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.FIELD})
public @interface AuditExempt {
    /** Why the state cannot change what the checker explores. */
    String value();
}

package kmodel.jpf;

import gov.nasa.jpf.Config;
import gov.nasa.jpf.vm.serialize.FieldAmmendmentByName;

/**
 * Fields JPF leaves out of the states it compares (its serializer's {@code filter.instance_ammendments}),
 * in the host JVM: fields the model writes and never reads, so that two states that differ only in
 * them behave alike from then on and may be matched. The list is {@code kmodel.jpf.ignored_fields},
 * set by {@link JpfSettings} at {@link JpfSettings.Granularity#PRIMITIVE} only, with its reason.
 */
public class IgnoredFields extends FieldAmmendmentByName {

    public IgnoredFields(Config config) {
        super(config.getStringArray("kmodel.jpf.ignored_fields", new String[0]), POLICY_IGNORE);
    }
}

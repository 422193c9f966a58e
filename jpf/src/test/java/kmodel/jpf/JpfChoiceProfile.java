package kmodel.jpf;

import gov.nasa.jpf.ListenerAdapter;
import gov.nasa.jpf.jvm.bytecode.JVMFieldInstruction;
import gov.nasa.jpf.vm.ChoiceGenerator;
import gov.nasa.jpf.vm.Instruction;
import gov.nasa.jpf.vm.MethodInfo;
import gov.nasa.jpf.vm.ThreadInfo;
import gov.nasa.jpf.vm.VM;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Diagnostics, off by default ({@code -Dkmodel.jpf.profile=true}): where JPF's scheduling choices
 * come from, by choice generator id and by the field or method of the instruction that made it.
 * For tuning the configuration; it asserts nothing.
 */
final class JpfChoiceProfile extends ListenerAdapter {
    private final Map<String, Long> counts = new HashMap<>();

    @Override
    public void choiceGeneratorRegistered(VM vm, ChoiceGenerator<?> cg, ThreadInfo ti, Instruction insn) {
        String where;
        if (insn instanceof JVMFieldInstruction) {
            where = "field " + ((JVMFieldInstruction) insn).getFieldInfo().getFullName();
        } else {
            MethodInfo mi = insn == null ? null : insn.getMethodInfo();
            where = (insn == null ? "?" : insn.getMnemonic()) + " in " + (mi == null ? "?" : mi.getFullName());
        }
        counts.merge(cg.getId() + " " + where, 1L, Long::sum);
    }

    String top(int n) {
        List<Map.Entry<String, Long>> es = new ArrayList<>(counts.entrySet());
        es.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
        StringBuilder sb = new StringBuilder("choice generators by source:\n");
        for (int i = 0; i < Math.min(n, es.size()); i++) {
            sb.append(String.format("%10d  %s%n", es.get(i).getValue(), es.get(i).getKey()));
        }
        return sb.toString();
    }
}

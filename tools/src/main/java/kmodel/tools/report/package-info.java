/**
 * The report of {@code ./kmodel reproduce --report DIR}: {@link kmodel.tools.report.ReproduceReport}
 * writes the Markdown and the JFreeChart PNG charts of a {@link kmodel.sim.Reproduction};
 * {@link kmodel.sim.Sensitivity} re-runs it with each cost-model constant halved and
 * doubled. Every figure is simulated (virtual time under the cost model), never measured.
 */
package kmodel.tools.report;

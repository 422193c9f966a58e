/**
 * The {@code kmodel} command line ({@code tools/} in spirit): {@code check} explores scenarios
 * and reports violations with a diagram and a replay token, {@code replay} re-runs a token,
 * {@code bugs}, {@code scenarios} and {@code options} list the catalog, the scenarios and the
 * Kconfig options. {@link kmodel.tools.Kmodel} is the main class of {@code tools/target/kmodel.jar},
 * which the {@code ./kmodel} script at the repository root builds and runs.
 */
package kmodel.tools;

/**
 * The bug catalog: historical mistakes (and a few labelled mutations) that {@code --bug ID}
 * switches back into the model, each with the scenario that exposes it, the violation kind the
 * checker must report and a distinctive part of its message. Tests run every entry
 * (BugCatalogModelCheck), and run each entry's scenario on the settings the bug implies without
 * the bug, which must pass: a "found" can only come from the bug.
 *
 * <p>Each model module declares its bug ids as {@code public static final String} constants of a
 * class named {@code <Module>Bugs} ({@code kmodel.mm.FilemapBugs}, {@code kmodel.block.BlockBugs})
 * and lists them all from its static {@code all()}; ModelBugListsTest gathers every such class and
 * checks that each id is in the catalog.
 */
package kmodel.verification.catalog;

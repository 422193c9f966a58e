/**
 * The bug catalog: historical mistakes (and a few labelled mutations) that {@code --bug ID}
 * switches back into the model, each with the scenario that exposes it and the violation kind
 * the checker must report. Tests run every entry.
 */
package kmodel.verification.catalog;

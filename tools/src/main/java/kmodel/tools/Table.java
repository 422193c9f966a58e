package kmodel.tools;

import com.google.common.base.Strings;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain-text table: a header row, then rows, columns padded to their widest cell. */
final class Table {
    private final List<String[]> rows = new ArrayList<>();
    private final int columns;

    Table(String... header) {
        this.columns = header.length;
        rows.add(header);
    }

    Table row(String... cells) {
        if (cells.length != columns) {
            throw new IllegalArgumentException("expected " + columns + " cells, got " + cells.length);
        }
        rows.add(cells);
        return this;
    }

    void print(PrintWriter out) {
        int[] width = new int[columns];
        for (String[] r : rows) {
            for (int c = 0; c < columns; c++) {
                width[c] = Math.max(width[c], r[c].length());
            }
        }
        for (String[] r : rows) {
            StringBuilder sb = new StringBuilder();
            for (int c = 0; c < columns; c++) {
                if (c > 0) {
                    sb.append("  ");
                }
                sb.append(c == columns - 1 ? r[c] : Strings.padEnd(r[c], width[c], ' '));
            }
            out.println(sb.toString().stripTrailing());
        }
        out.flush();
    }
}

package kmodel.tools.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.category.CategoryDataset;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The report's charts: JFreeChart bar and line charts in one plain style (white background, flat
 * bars, two fixed colours for the two forms), rendered off screen ({@code java.awt.headless}) to
 * PNG. Every chart carries a subtitle saying its figures are simulated.
 */
final class Charts {
    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    /** Vanilla (or the first series): blue; patched (or the second): orange; a third: green. */
    private static final Color[] SERIES = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c)};

    private Charts() {
    }

    /** A vertical bar chart of {@code data}; {@code legend} when it has more than one series. */
    static JFreeChart bars(String title, String subtitle, String categoryLabel, String valueLabel,
            CategoryDataset data, boolean legend) {
        JFreeChart chart = ChartFactory.createBarChart(title, categoryLabel, valueLabel, data, PlotOrientation.VERTICAL,
                legend, false, false);
        style(chart, subtitle);
        CategoryPlot plot = chart.getCategoryPlot();
        BarRenderer r = (BarRenderer) plot.getRenderer();
        r.setBarPainter(new StandardBarPainter());
        r.setShadowVisible(false);
        r.setDrawBarOutline(false);
        r.setItemMargin(0.05);
        for (int i = 0; i < data.getRowCount(); i++) {
            r.setSeriesPaint(i, SERIES[i % SERIES.length]);
        }
        CategoryAxis x = plot.getDomainAxis();
        x.setCategoryMargin(0.15);
        x.setMaximumCategoryLabelLines(2);
        if (data.getColumnCount() > 12) {
            x.setCategoryLabelPositions(CategoryLabelPositions.UP_90);
        }
        return chart;
    }

    /** A line chart with a shape at each point; the x axis counts (integer ticks). */
    static JFreeChart lines(String title, String subtitle, String xLabel, String yLabel, XYSeriesCollection data) {
        JFreeChart chart = ChartFactory.createXYLineChart(title, xLabel, yLabel, data, PlotOrientation.VERTICAL, true,
                false, false);
        style(chart, subtitle);
        XYPlot plot = chart.getXYPlot();
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < data.getSeriesCount(); i++) {
            r.setSeriesPaint(i, SERIES[i % SERIES.length]);
            r.setSeriesStroke(i, new BasicStroke(2f));
        }
        plot.setRenderer(r);
        ((NumberAxis) plot.getDomainAxis()).setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        ((NumberAxis) plot.getRangeAxis()).setAutoRangeIncludesZero(true);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        plot.setBackgroundPaint(Color.WHITE);
        return chart;
    }

    private static void style(JFreeChart chart, String subtitle) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.setAntiAlias(true);
        chart.setTextAntiAlias(true);
        chart.getTitle().setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        TextTitle sub = new TextTitle(subtitle, new Font(Font.SANS_SERIF, Font.ITALIC, 11));
        sub.setPaint(Color.DARK_GRAY);
        chart.addSubtitle(sub);
        if (chart.getPlot() instanceof CategoryPlot p) {
            p.setBackgroundPaint(Color.WHITE);
            p.setRangeGridlinePaint(Color.LIGHT_GRAY);
            p.setOutlineVisible(false);
        }
    }

    /** Writes {@code charts} side by side, each {@code width} x {@code height} pixels, as one PNG. */
    static void writePng(Path file, List<JFreeChart> charts, int width, int height) throws IOException {
        BufferedImage image = new BufferedImage(width * charts.size(), height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setPaint(Color.WHITE);
            g.fillRect(0, 0, image.getWidth(), image.getHeight());
            for (int i = 0; i < charts.size(); i++) {
                charts.get(i).draw(g, new Rectangle2D.Double(i * width, 0, width, height));
            }
        } finally {
            g.dispose();
        }
        try (OutputStream out = Files.newOutputStream(file)) {
            if (!ImageIO.write(image, "png", out)) {
                throw new IOException("no PNG writer in this JVM");
            }
        }
    }
}

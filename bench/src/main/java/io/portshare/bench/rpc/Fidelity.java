package io.portshare.bench.rpc;

import io.portshare.bench.load.Measurement;
import io.portshare.bench.results.Stats;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * One cell of the calibration: the generator's and the C client's runs, pair by pair. The ratio is
 * the median of the pairs' generator/C ratios, so a machine that is busier during one pair than
 * another moves both sides of that pair, not the verdict.
 */
record Fidelity(double generator, double c, double ratio, String pairRatios, double generatorCpu, double cCpu,
    long errors) {

  static Fidelity of(List<Measurement> generator, List<Measurement> c) {
    double[] ratios = IntStream.range(0, Math.min(generator.size(), c.size()))
        .mapToDouble(i -> RpcCalibrateCommand.ratio(generator.get(i), c.get(i))).toArray();
    String pairs = Arrays.stream(ratios).mapToObj(r -> String.format(Locale.ROOT, "%.2f", r))
        .collect(Collectors.joining(" "));
    return new Fidelity(median(generator, Measurement::perSecond), median(c, Measurement::perSecond),
        Stats.median(ratios), pairs, median(generator, Measurement::clientCpuMicrosPerOp),
        median(c, Measurement::clientCpuMicrosPerOp),
        Stream.concat(generator.stream(), c.stream()).mapToLong(Measurement::errorCount).sum());
  }

  private static double median(List<Measurement> ms, ToDoubleFunction<Measurement> f) {
    return Stats.median(ms.stream().mapToDouble(f).filter(v -> !Double.isNaN(v)).toArray());
  }
}

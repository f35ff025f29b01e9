import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef } from 'preact/hooks';

/** Chart options without a width: the chart takes its container's width, and follows it. */
export type ChartOptions = Omit<uPlot.Options, 'width'>;

/** A uPlot chart in a div (data-testid `testid`); rebuilt when `opts` or `data` change (memoise both). */
export function Chart({ opts, data, testid }: { opts: ChartOptions; data: uPlot.AlignedData; testid: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const u = new uPlot({ ...opts, width: Math.max(300, el.clientWidth) }, data, el);
    const ro = new ResizeObserver(() => u.setSize({ width: Math.max(300, el.clientWidth), height: opts.height }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
    };
  }, [opts, data]);
  return <div ref={ref} class="chart" data-testid={testid} />;
}

/** Axis colours of the page's dark theme. */
export const AXIS = { stroke: '#7d8a96', grid: { stroke: '#26313b', width: 1 }, ticks: { stroke: '#26313b', width: 1 } };

/** A stepped line: a price holds until its next change. */
export const stepped = uPlot.paths.stepped!({ align: 1 });
export const bars = uPlot.paths.bars!({ size: [0.6, 80] });

/* The printable summary: what a buyer takes to a meeting. One page built from the last
 * estimate (the job, the verdict, the servers, time and cost, the facility, buy or rent,
 * the likely ranges of the peak and the time and what they rest on, and the command that
 * gives the same figures); shown only when printing (style.css). */
'use strict';

/* The `trainsize estimate` command line of these options (a pasted config.json and the
 * vendor's calibration are files); no control character reaches the page. */
function commandLine(o) {
  const quote = (v) => (/^[A-Za-z0-9._:=,+\/-]+$/.test(v) ? v : "'" + shown(v).replace(/'/g, "'\\''") + "'");
  return ['trainsize estimate'].concat(Object.entries(o).map(([k, v]) =>
    k === 'hf-config' || k === 'calibration' ? `--${k} ${k}.json` : `--${k} ${quote(String(v))}`)).join(' ');
}

function renderSummary(r, o, vendor, needsTokens) {
  const m = r.memory, s = r.system, t = r.time;
  const box = $('printable');
  box.textContent = '';
  box.appendChild(element('h2', '', vendor.title || 'Training sizing summary'));
  box.appendChild(element('p', 'when', 'libtrainsize ' + r.trainsize_version + ', ' + new Date().toISOString().slice(0, 10)));
  const job = element('table', 'job');
  row(job, 'model', `${r.model.name} (${num(r.model.parameters)} parameters)`);
  row(job, 'GPUs', `${r.layout.gpus} x ${r.layout.gpu}: tp ${r.layout.tp}, pp ${r.layout.pp}, ep ${r.layout.ep}, ZeRO ${r.layout.zero}, micro-batch ${r.layout.micro_batch}`);
  row(job, 'per GPU', `${m.fits ? 'fits' : 'does not fit'}: peak ${gib(m.peak_total)} of ${gib(m.gpu_capacity)}`);
  row(job, 'likely peak', likelyPeak(m, r.uncertainty));
  if (r.layout.calibration) row(job, 'calibration', r.layout.calibration);
  if (r.warnings.length) row(job, 'warnings', r.warnings.join(', '));
  box.appendChild(job);
  box.appendChild(element('h3', '', 'Servers'));
  const servers = element('table', 'servers');
  row(servers, 'servers', `${s.nodes} x ${s.gpus_per_node} GPUs`);
  row(servers, 'host RAM per server', `${gib(s.host_ram_per_node)} (the job needs ${gib(s.host_ram_need_per_node)})`);
  row(servers, 'CPU cores per server', String(s.cpu_cores_per_node));
  row(servers, 'network', s.network_link ? `${s.network_nics_per_node} x ${s.network_link} per server` : 'none beyond the servers');
  row(servers, 'storage', s.storage_class);
  row(servers, 'power, all servers', kw(s.power_watts));
  box.appendChild(servers);
  box.appendChild(element('h3', '', 'Facility'));
  const facility = element('table', 'facility');
  row(facility, 'racks', `${plural(s.racks, 'rack')}, up to ${plural(s.servers_per_rack, 'server')} a rack`);
  row(facility, 'fullest rack', s.rack_power_watts ? `${kw(s.rack_power_watts)}, ${s.cooling} cooling` : 'power not published');
  row(facility, 'fabric switches', String(s.switches));
  box.appendChild(facility);
  box.appendChild(element('h3', '', 'Time and cost'));
  const money = element('table', 'money');
  if (needsTokens) {
    row(money, 'time and cost', 'not sized: no token count was given');
    row(money, 'one step, likely', likelyTime(t, r.uncertainty, true));
  } else {
    row(money, 'wall time', `${runTime(t.wall_seconds)} (${(100 * t.goodput).toFixed(1)} % goodput)`);
    row(money, 'likely', likelyTime(t, r.uncertainty, false));
    row(money, 'cloud cost, this run', usd(s.cost_cloud_usd));
    row(money, 'owned, this run', usd(s.cost_own_usd));
  }
  if (s.capex_usd > 0) {
    row(money, 'owned, up front', usd(s.capex_usd));
    row(money, 'a month, cloud or owned', `${usd(s.cloud_usd_per_month)} or ${usd(s.own_usd_per_month)}`);
    row(money, 'break-even', s.breakeven_months > 0 ? `${s.breakeven_months.toFixed(1)} months` : 'never: renting stays cheaper');
  }
  box.appendChild(money);
  box.appendChild(element('p', 'basis', 'How sure: ' + howSure(r.uncertainty) + '.'));
  box.appendChild(element('p', 'command', commandLine(o)));
  if (vendor.contact) box.appendChild(element('p', 'contact', `${vendor.contact.text}: ${vendor.contact.href.replace(/^mailto:/i, '')}`));
}

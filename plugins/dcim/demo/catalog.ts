/** What the demo data set is made of: a small, realistic catalogue of places, vendors and hardware. */

/** Continents and the countries sites are spread over, with each country's time zone. */
export const REGIONS: { name: string; countries: [string, string][] }[] = [
  { name: 'Europe', countries: [['France', 'Europe/Paris'], ['Germany', 'Europe/Berlin'], ['Netherlands', 'Europe/Amsterdam']] },
  { name: 'North America', countries: [['United States', 'America/New_York'], ['Canada', 'America/Toronto']] },
  { name: 'Asia Pacific', countries: [['Japan', 'Asia/Tokyo'], ['Singapore', 'Asia/Singapore'], ['Australia', 'Australia/Sydney']] },
];

export const SITE_GROUPS = ['Data centers', 'Edge', 'Colocation'];

export const MANUFACTURERS = ['Arista', 'Juniper', 'Dell', 'APC', 'Panduit'];

/** Device roles: name, colour, short name used in device names. */
export const ROLES: [string, string, string][] = [
  ['Core router', 'aa1409', 'core'],
  ['Leaf switch', '2196f3', 'leaf'],
  ['Server', '4caf50', 'srv'],
  ['PDU', '607d8b', 'pdu'],
  ['Patch panel', '9e9e9e', 'patch'],
];

export const PLATFORMS: [string, string | null][] = [['EOS', 'Arista'], ['Junos', 'Juniper'], ['Linux', null]];

/** A device type and its component templates (names may hold `{n}`, one template per number of `range`). */
export interface DemoType {
  model: string;
  manufacturer: string;
  role: string;
  platform: string | null;
  uHeight: number;
  fullDepth: boolean;
  interfaces: { name: string; range?: [number, number]; type: string; mgmt?: boolean }[];
  powerPorts: number;
  powerOutlets: number;
  consolePorts: number;
  /** Pass-through: one rear port of this many positions and as many front ports. */
  frontPorts: number;
  moduleBays: number;
}

export const DEVICE_TYPES: DemoType[] = [
  {
    model: 'MX480', manufacturer: 'Juniper', role: 'Core router', platform: 'Junos', uHeight: 8, fullDepth: true,
    interfaces: [{ name: 'fxp0', type: '1000base-t', mgmt: true }], powerPorts: 4, powerOutlets: 0, consolePorts: 1, frontPorts: 0, moduleBays: 6,
  },
  {
    model: 'DCS-7050SX3-48YC8', manufacturer: 'Arista', role: 'Leaf switch', platform: 'EOS', uHeight: 1, fullDepth: true,
    interfaces: [
      { name: 'Ethernet{n}', range: [1, 48], type: '25gbase-x-sfp28' },
      { name: 'Ethernet{n}/1', range: [49, 56], type: '100gbase-x-qsfp28' },
      { name: 'Management1', type: '1000base-t', mgmt: true },
    ],
    powerPorts: 2, powerOutlets: 0, consolePorts: 1, frontPorts: 0, moduleBays: 0,
  },
  {
    model: 'PowerEdge R650', manufacturer: 'Dell', role: 'Server', platform: 'Linux', uHeight: 1, fullDepth: true,
    interfaces: [{ name: 'eno{n}', range: [1, 4], type: '10gbase-t' }, { name: 'iDRAC', type: '1000base-t', mgmt: true }],
    powerPorts: 2, powerOutlets: 0, consolePorts: 0, frontPorts: 0, moduleBays: 0,
  },
  {
    model: 'AP8868', manufacturer: 'APC', role: 'PDU', platform: null, uHeight: 0, fullDepth: false,
    interfaces: [], powerPorts: 1, powerOutlets: 24, consolePorts: 0, frontPorts: 0, moduleBays: 0,
  },
  {
    model: 'Patch panel 24', manufacturer: 'Panduit', role: 'Patch panel', platform: null, uHeight: 1, fullDepth: false,
    interfaces: [], powerPorts: 0, powerOutlets: 0, consolePorts: 0, frontPorts: 24, moduleBays: 0,
  },
];

/** The line card installed in a core router's first two bays; `{module}` takes the bay's position. */
export const LINE_CARD = { model: 'MPC7E-MRATE', manufacturer: 'Juniper', interfaces: 12, installedIn: 2 };

/** Which type the k-th device of a site is (repeating every 25 devices): about 20 interfaces a device on average. */
export function typeOfSlot(k: number): string {
  const slot = k % 25;
  if (slot === 0) return 'MX480';
  if (slot <= 7) return 'DCS-7050SX3-48YC8';
  if (slot <= 20) return 'PowerEdge R650';
  if (slot <= 22) return 'AP8868';
  return 'Patch panel 24';
}

/** Devices per rack: a rack's share of a site's devices, with room to spare (42U). */
export const DEVICES_PER_RACK = 12;

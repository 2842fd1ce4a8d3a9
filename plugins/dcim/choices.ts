import { defineChoices } from '../../kernel/index.js';

// NetBox 4.4's choice sets of the dcim app; grouped sets are flattened in their order, with the group as a comment.

// `reserved` is the contract's addition to NetBox's site statuses.
export const SiteStatus = defineChoices([
  ['planned', 'Planned'],
  ['staging', 'Staging'],
  ['active', 'Active'],
  ['decommissioning', 'Decommissioning'],
  ['retired', 'Retired'],
  ['reserved', 'Reserved'],
]);

export const LocationStatus = defineChoices([
  ['planned', 'Planned'],
  ['staging', 'Staging'],
  ['active', 'Active'],
  ['decommissioning', 'Decommissioning'],
  ['retired', 'Retired'],
]);

export const RackFormFactor = defineChoices([
  ['2-post-frame', '2-post frame'],
  ['4-post-frame', '4-post frame'],
  ['4-post-cabinet', '4-post cabinet'],
  ['wall-frame', 'Wall-mounted frame'],
  ['wall-frame-vertical', 'Wall-mounted frame (vertical)'],
  ['wall-cabinet', 'Wall-mounted cabinet'],
  ['wall-cabinet-vertical', 'Wall-mounted cabinet (vertical)'],
]);

export const RackWidth = defineChoices([
  [10, '10 inches'],
  [19, '19 inches'],
  [21, '21 inches'],
  [23, '23 inches'],
]);

export const RackStatus = defineChoices([
  ['reserved', 'Reserved'],
  ['available', 'Available'],
  ['planned', 'Planned'],
  ['active', 'Active'],
  ['deprecated', 'Deprecated'],
]);

export const RackDimensionUnit = defineChoices([
  ['mm', 'Millimeters'],
  ['in', 'Inches'],
]);

export const RackAirflow = defineChoices([
  ['front-to-rear', 'Front to rear'],
  ['rear-to-front', 'Rear to front'],
]);

export const RackReservationStatus = defineChoices([
  ['pending', 'Pending'],
  ['active', 'Active'],
  ['stale', 'Stale'],
]);

export const SubdeviceRole = defineChoices([
  ['parent', 'Parent'],
  ['child', 'Child'],
]);

export const DeviceFace = defineChoices([
  ['front', 'Front'],
  ['rear', 'Rear'],
]);

export const DeviceStatus = defineChoices([
  ['offline', 'Offline'],
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['staged', 'Staged'],
  ['failed', 'Failed'],
  ['inventory', 'Inventory'],
  ['decommissioning', 'Decommissioning'],
]);

export const DeviceAirflow = defineChoices([
  ['front-to-rear', 'Front to rear'],
  ['rear-to-front', 'Rear to front'],
  ['left-to-right', 'Left to right'],
  ['right-to-left', 'Right to left'],
  ['side-to-rear', 'Side to rear'],
  ['rear-to-side', 'Rear to side'],
  ['bottom-to-top', 'Bottom to top'],
  ['top-to-bottom', 'Top to bottom'],
  ['passive', 'Passive'],
  ['mixed', 'Mixed'],
]);

export const ModuleStatus = defineChoices([
  ['offline', 'Offline'],
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['staged', 'Staged'],
  ['failed', 'Failed'],
  ['decommissioning', 'Decommissioning'],
]);

export const ModuleAirflow = defineChoices([
  ['front-to-rear', 'Front to rear'],
  ['rear-to-front', 'Rear to front'],
  ['left-to-right', 'Left to right'],
  ['right-to-left', 'Right to left'],
  ['side-to-rear', 'Side to rear'],
  ['passive', 'Passive'],
]);

export const ConsolePortType = defineChoices([
  // Serial
  ['de-9', 'DE-9'],
  ['db-25', 'DB-25'],
  ['rj-11', 'RJ-11'],
  ['rj-12', 'RJ-12'],
  ['rj-45', 'RJ-45'],
  ['mini-din-8', 'Mini-DIN 8'],
  // USB
  ['usb-a', 'USB Type A'],
  ['usb-b', 'USB Type B'],
  ['usb-c', 'USB Type C'],
  ['usb-mini-a', 'USB Mini A'],
  ['usb-mini-b', 'USB Mini B'],
  ['usb-micro-a', 'USB Micro A'],
  ['usb-micro-b', 'USB Micro B'],
  ['usb-micro-ab', 'USB Micro AB'],
  // Other
  ['other', 'Other'],
]);

export const ConsolePortSpeed = defineChoices([
  [1200, '1200 bps'],
  [2400, '2400 bps'],
  [4800, '4800 bps'],
  [9600, '9600 bps'],
  [19200, '19.2 kbps'],
  [38400, '38.4 kbps'],
  [57600, '57.6 kbps'],
  [115200, '115.2 kbps'],
]);

export const PowerPortType = defineChoices([
  // IEC 60320
  ['iec-60320-c6', 'C6'],
  ['iec-60320-c8', 'C8'],
  ['iec-60320-c14', 'C14'],
  ['iec-60320-c16', 'C16'],
  ['iec-60320-c18', 'C18'],
  ['iec-60320-c20', 'C20'],
  ['iec-60320-c22', 'C22'],
  // IEC 60309
  ['iec-60309-p-n-e-4h', 'P+N+E 4H'],
  ['iec-60309-p-n-e-6h', 'P+N+E 6H'],
  ['iec-60309-p-n-e-9h', 'P+N+E 9H'],
  ['iec-60309-2p-e-4h', '2P+E 4H'],
  ['iec-60309-2p-e-6h', '2P+E 6H'],
  ['iec-60309-2p-e-9h', '2P+E 9H'],
  ['iec-60309-3p-e-4h', '3P+E 4H'],
  ['iec-60309-3p-e-6h', '3P+E 6H'],
  ['iec-60309-3p-e-9h', '3P+E 9H'],
  ['iec-60309-3p-n-e-4h', '3P+N+E 4H'],
  ['iec-60309-3p-n-e-6h', '3P+N+E 6H'],
  ['iec-60309-3p-n-e-9h', '3P+N+E 9H'],
  // IEC 60906-1
  ['iec-60906-1', 'IEC 60906-1'],
  ['nbr-14136-10a', '2P+T 10A (NBR 14136)'],
  ['nbr-14136-20a', '2P+T 20A (NBR 14136)'],
  // NEMA (Non-locking)
  ['nema-1-15p', 'NEMA 1-15P'],
  ['nema-5-15p', 'NEMA 5-15P'],
  ['nema-5-20p', 'NEMA 5-20P'],
  ['nema-5-30p', 'NEMA 5-30P'],
  ['nema-5-50p', 'NEMA 5-50P'],
  ['nema-6-15p', 'NEMA 6-15P'],
  ['nema-6-20p', 'NEMA 6-20P'],
  ['nema-6-30p', 'NEMA 6-30P'],
  ['nema-6-50p', 'NEMA 6-50P'],
  ['nema-10-30p', 'NEMA 10-30P'],
  ['nema-10-50p', 'NEMA 10-50P'],
  ['nema-14-20p', 'NEMA 14-20P'],
  ['nema-14-30p', 'NEMA 14-30P'],
  ['nema-14-50p', 'NEMA 14-50P'],
  ['nema-14-60p', 'NEMA 14-60P'],
  ['nema-15-15p', 'NEMA 15-15P'],
  ['nema-15-20p', 'NEMA 15-20P'],
  ['nema-15-30p', 'NEMA 15-30P'],
  ['nema-15-50p', 'NEMA 15-50P'],
  ['nema-15-60p', 'NEMA 15-60P'],
  // NEMA (Locking)
  ['nema-l1-15p', 'NEMA L1-15P'],
  ['nema-l5-15p', 'NEMA L5-15P'],
  ['nema-l5-20p', 'NEMA L5-20P'],
  ['nema-l5-30p', 'NEMA L5-30P'],
  ['nema-l5-50p', 'NEMA L5-50P'],
  ['nema-l6-15p', 'NEMA L6-15P'],
  ['nema-l6-20p', 'NEMA L6-20P'],
  ['nema-l6-30p', 'NEMA L6-30P'],
  ['nema-l6-50p', 'NEMA L6-50P'],
  ['nema-l10-30p', 'NEMA L10-30P'],
  ['nema-l14-20p', 'NEMA L14-20P'],
  ['nema-l14-30p', 'NEMA L14-30P'],
  ['nema-l14-50p', 'NEMA L14-50P'],
  ['nema-l14-60p', 'NEMA L14-60P'],
  ['nema-l15-20p', 'NEMA L15-20P'],
  ['nema-l15-30p', 'NEMA L15-30P'],
  ['nema-l15-50p', 'NEMA L15-50P'],
  ['nema-l15-60p', 'NEMA L15-60P'],
  ['nema-l21-20p', 'NEMA L21-20P'],
  ['nema-l21-30p', 'NEMA L21-30P'],
  ['nema-l22-20p', 'NEMA L22-20P'],
  ['nema-l22-30p', 'NEMA L22-30P'],
  // California Style
  ['cs6361c', 'CS6361C'],
  ['cs6365c', 'CS6365C'],
  ['cs8165c', 'CS8165C'],
  ['cs8265c', 'CS8265C'],
  ['cs8365c', 'CS8365C'],
  ['cs8465c', 'CS8465C'],
  // International/ITA
  ['ita-c', 'ITA Type C (CEE 7/16)'],
  ['ita-e', 'ITA Type E (CEE 7/6)'],
  ['ita-f', 'ITA Type F (CEE 7/4)'],
  ['ita-ef', 'ITA Type E/F (CEE 7/7)'],
  ['ita-g', 'ITA Type G (BS 1363)'],
  ['ita-h', 'ITA Type H'],
  ['ita-i', 'ITA Type I'],
  ['ita-j', 'ITA Type J'],
  ['ita-k', 'ITA Type K'],
  ['ita-l', 'ITA Type L (CEI 23-50)'],
  ['ita-m', 'ITA Type M (BS 546)'],
  ['ita-n', 'ITA Type N'],
  ['ita-o', 'ITA Type O'],
  // USB
  ['usb-a', 'USB Type A'],
  ['usb-b', 'USB Type B'],
  ['usb-c', 'USB Type C'],
  ['usb-mini-a', 'USB Mini A'],
  ['usb-mini-b', 'USB Mini B'],
  ['usb-micro-a', 'USB Micro A'],
  ['usb-micro-b', 'USB Micro B'],
  ['usb-micro-ab', 'USB Micro AB'],
  ['usb-3-b', 'USB 3.0 Type B'],
  ['usb-3-micro-b', 'USB 3.0 Micro B'],
  // Molex
  ['molex-micro-fit-1x2', 'Molex Micro-Fit 1x2'],
  ['molex-micro-fit-2x2', 'Molex Micro-Fit 2x2'],
  ['molex-micro-fit-2x3', 'Molex Micro-Fit 2x3'],
  ['molex-micro-fit-2x4', 'Molex Micro-Fit 2x4'],
  // DC
  ['dc-terminal', 'DC Terminal'],
  // Proprietary
  ['saf-d-grid', 'Saf-D-Grid'],
  ['neutrik-powercon-20', 'Neutrik powerCON (20A)'],
  ['neutrik-powercon-32', 'Neutrik powerCON (32A)'],
  ['neutrik-powercon-true1', 'Neutrik powerCON TRUE1'],
  ['neutrik-powercon-true1-top', 'Neutrik powerCON TRUE1 TOP'],
  ['ubiquiti-smartpower', 'Ubiquiti SmartPower'],
  // Other
  ['hardwired', 'Hardwired'],
  ['other', 'Other'],
]);

export const PowerOutletType = defineChoices([
  // IEC 60320
  ['iec-60320-c5', 'C5'],
  ['iec-60320-c7', 'C7'],
  ['iec-60320-c13', 'C13'],
  ['iec-60320-c15', 'C15'],
  ['iec-60320-c17', 'C17'],
  ['iec-60320-c19', 'C19'],
  ['iec-60320-c21', 'C21'],
  // IEC 60309
  ['iec-60309-p-n-e-4h', 'P+N+E 4H'],
  ['iec-60309-p-n-e-6h', 'P+N+E 6H'],
  ['iec-60309-p-n-e-9h', 'P+N+E 9H'],
  ['iec-60309-2p-e-4h', '2P+E 4H'],
  ['iec-60309-2p-e-6h', '2P+E 6H'],
  ['iec-60309-2p-e-9h', '2P+E 9H'],
  ['iec-60309-3p-e-4h', '3P+E 4H'],
  ['iec-60309-3p-e-6h', '3P+E 6H'],
  ['iec-60309-3p-e-9h', '3P+E 9H'],
  ['iec-60309-3p-n-e-4h', '3P+N+E 4H'],
  ['iec-60309-3p-n-e-6h', '3P+N+E 6H'],
  ['iec-60309-3p-n-e-9h', '3P+N+E 9H'],
  // IEC 60906-1
  ['iec-60906-1', 'IEC 60906-1'],
  ['nbr-14136-10a', '2P+T 10A (NBR 14136)'],
  ['nbr-14136-20a', '2P+T 20A (NBR 14136)'],
  // NEMA (Non-locking)
  ['nema-1-15r', 'NEMA 1-15R'],
  ['nema-5-15r', 'NEMA 5-15R'],
  ['nema-5-20r', 'NEMA 5-20R'],
  ['nema-5-30r', 'NEMA 5-30R'],
  ['nema-5-50r', 'NEMA 5-50R'],
  ['nema-6-15r', 'NEMA 6-15R'],
  ['nema-6-20r', 'NEMA 6-20R'],
  ['nema-6-30r', 'NEMA 6-30R'],
  ['nema-6-50r', 'NEMA 6-50R'],
  ['nema-10-30r', 'NEMA 10-30R'],
  ['nema-10-50r', 'NEMA 10-50R'],
  ['nema-14-20r', 'NEMA 14-20R'],
  ['nema-14-30r', 'NEMA 14-30R'],
  ['nema-14-50r', 'NEMA 14-50R'],
  ['nema-14-60r', 'NEMA 14-60R'],
  ['nema-15-15r', 'NEMA 15-15R'],
  ['nema-15-20r', 'NEMA 15-20R'],
  ['nema-15-30r', 'NEMA 15-30R'],
  ['nema-15-50r', 'NEMA 15-50R'],
  ['nema-15-60r', 'NEMA 15-60R'],
  // NEMA (Locking)
  ['nema-l1-15r', 'NEMA L1-15R'],
  ['nema-l5-15r', 'NEMA L5-15R'],
  ['nema-l5-20r', 'NEMA L5-20R'],
  ['nema-l5-30r', 'NEMA L5-30R'],
  ['nema-l5-50r', 'NEMA L5-50R'],
  ['nema-l6-15r', 'NEMA L6-15R'],
  ['nema-l6-20r', 'NEMA L6-20R'],
  ['nema-l6-30r', 'NEMA L6-30R'],
  ['nema-l6-50r', 'NEMA L6-50R'],
  ['nema-l10-30r', 'NEMA L10-30R'],
  ['nema-l14-20r', 'NEMA L14-20R'],
  ['nema-l14-30r', 'NEMA L14-30R'],
  ['nema-l14-50r', 'NEMA L14-50R'],
  ['nema-l14-60r', 'NEMA L14-60R'],
  ['nema-l15-20r', 'NEMA L15-20R'],
  ['nema-l15-30r', 'NEMA L15-30R'],
  ['nema-l15-50r', 'NEMA L15-50R'],
  ['nema-l15-60r', 'NEMA L15-60R'],
  ['nema-l21-20r', 'NEMA L21-20R'],
  ['nema-l21-30r', 'NEMA L21-30R'],
  ['nema-l22-20r', 'NEMA L22-20R'],
  ['nema-l22-30r', 'NEMA L22-30R'],
  // California Style
  ['CS6360C', 'CS6360C'],
  ['CS6364C', 'CS6364C'],
  ['CS8164C', 'CS8164C'],
  ['CS8264C', 'CS8264C'],
  ['CS8364C', 'CS8364C'],
  ['CS8464C', 'CS8464C'],
  // ITA/International
  ['ita-e', 'ITA Type E (CEE 7/5)'],
  ['ita-f', 'ITA Type F (CEE 7/3)'],
  ['ita-g', 'ITA Type G (BS 1363)'],
  ['ita-h', 'ITA Type H'],
  ['ita-i', 'ITA Type I'],
  ['ita-j', 'ITA Type J'],
  ['ita-k', 'ITA Type K'],
  ['ita-l', 'ITA Type L (CEI 23-50)'],
  ['ita-m', 'ITA Type M (BS 546)'],
  ['ita-n', 'ITA Type N'],
  ['ita-o', 'ITA Type O'],
  ['ita-multistandard', 'ITA Multistandard'],
  // USB
  ['usb-a', 'USB Type A'],
  ['usb-micro-b', 'USB Micro B'],
  ['usb-c', 'USB Type C'],
  // Molex
  ['molex-micro-fit-1x2', 'Molex Micro-Fit 1x2'],
  ['molex-micro-fit-2x2', 'Molex Micro-Fit 2x2'],
  ['molex-micro-fit-2x3', 'Molex Micro-Fit 2x3'],
  ['molex-micro-fit-2x4', 'Molex Micro-Fit 2x4'],
  // DC
  ['dc-terminal', 'DC Terminal'],
  // Proprietary
  ['eaton-c39', 'Eaton C39'],
  ['hdot-cx', 'HDOT Cx'],
  ['saf-d-grid', 'Saf-D-Grid'],
  ['neutrik-powercon-20a', 'Neutrik powerCON (20A)'],
  ['neutrik-powercon-32a', 'Neutrik powerCON (32A)'],
  ['neutrik-powercon-true1', 'Neutrik powerCON TRUE1'],
  ['neutrik-powercon-true1-top', 'Neutrik powerCON TRUE1 TOP'],
  ['ubiquiti-smartpower', 'Ubiquiti SmartPower'],
  // Other
  ['hardwired', 'Hardwired'],
  ['other', 'Other'],
]);

export const PowerOutletFeedLeg = defineChoices([
  ['A', 'A'],
  ['B', 'B'],
  ['C', 'C'],
]);

export const PowerOutletStatus = defineChoices([
  ['enabled', 'Enabled'],
  ['disabled', 'Disabled'],
  ['faulty', 'Faulty'],
]);

export const InterfaceType = defineChoices([
  // Virtual interfaces
  ['virtual', 'Virtual'],
  ['bridge', 'Bridge'],
  ['lag', 'Link Aggregation Group (LAG)'],
  // FastEthernet (100 Mbps)
  ['100base-fx', '100BASE-FX (10/100ME)'],
  ['100base-lfx', '100BASE-LFX (10/100ME)'],
  ['100base-tx', '100BASE-TX (10/100ME)'],
  ['100base-t1', '100BASE-T1 (10/100ME)'],
  // GigabitEthernet (1 Gbps)
  ['1000base-bx10-d', '1000BASE-BX10-D (1GE BiDi Down)'],
  ['1000base-bx10-u', '1000BASE-BX10-U (1GE BiDi Up)'],
  ['1000base-cwdm', '1000BASE-CWDM (1GE)'],
  ['1000base-cx', '1000BASE-CX (1GE DAC)'],
  ['1000base-dwdm', '1000BASE-DWDM (1GE)'],
  ['1000base-ex', '1000BASE-EX (1GE)'],
  ['1000base-lsx', '1000BASE-LSX (1GE)'],
  ['1000base-lx', '1000BASE-LX (1GE)'],
  ['1000base-lx10', '1000BASE-LX10/LH (1GE)'],
  ['1000base-sx', '1000BASE-SX (1GE)'],
  ['1000base-t', '1000BASE-T (1GE)'],
  ['1000base-tx', '1000BASE-TX (1GE)'],
  ['1000base-zx', '1000BASE-ZX (1GE)'],
  // 2.5/5 Gbps Ethernet
  ['2.5gbase-t', '2.5GBASE-T (2.5GE)'],
  ['5gbase-t', '5GBASE-T (5GE)'],
  // 10 Gbps Ethernet
  ['10gbase-br-d', '10GBASE-BR-D (10GE BiDi Down)'],
  ['10gbase-br-u', '10GBASE-BR-U (10GE BiDi Up)'],
  ['10gbase-cx4', '10GBASE-CX4 (10GE DAC)'],
  ['10gbase-er', '10GBASE-ER (10GE)'],
  ['10gbase-lr', '10GBASE-LR (10GE)'],
  ['10gbase-lrm', '10GBASE-LRM (10GE)'],
  ['10gbase-lx4', '10GBASE-LX4 (10GE)'],
  ['10gbase-sr', '10GBASE-SR (10GE)'],
  ['10gbase-t', '10GBASE-T (10GE)'],
  ['10gbase-zr', '10GBASE-ZR (10GE)'],
  // 25 Gbps Ethernet
  ['25gbase-cr', '25GBASE-CR (25GE DAC)'],
  ['25gbase-er', '25GBASE-ER (25GE)'],
  ['25gbase-lr', '25GBASE-LR (25GE)'],
  ['25gbase-sr', '25GBASE-SR (25GE)'],
  ['25gbase-t', '25GBASE-T (25GE)'],
  // 40 Gbps Ethernet
  ['40gbase-cr4', '40GBASE-CR4 (40GE DAC)'],
  ['40gbase-er4', '40GBASE-ER4 (40GE)'],
  ['40gbase-fr4', '40GBASE-FR4 (40GE)'],
  ['40gbase-lr4', '40GBASE-LR4 (40GE)'],
  ['40gbase-sr4', '40GBASE-SR4 (40GE)'],
  // 50 Gbps Ethernet
  ['50gbase-cr', '50GBASE-CR (50GE DAC)'],
  ['50gbase-er', '50GBASE-ER (50GE)'],
  ['50gbase-fr', '50GBASE-FR (50GE)'],
  ['50gbase-lr', '50GBASE-LR (50GE)'],
  ['50gbase-sr', '50GBASE-SR (50GE)'],
  // 100 Gbps Ethernet
  ['100gbase-cr1', '100GBASE-CR1 (100GE DAC)'],
  ['100gbase-cr2', '100GBASE-CR2 (100GE DAC)'],
  ['100gbase-cr4', '100GBASE-CR4 (100GE DAC)'],
  ['100gbase-cr10', '100GBASE-CR10 (100GE DAC)'],
  ['100gbase-cwdm4', '100GBASE-CWDM4 (100GE)'],
  ['100gbase-dr', '100GBASE-DR (100GE)'],
  ['100gbase-er4', '100GBASE-ER4 (100GE)'],
  ['100gbase-fr1', '100GBASE-FR1 (100GE)'],
  ['100gbase-lr1', '100GBASE-LR1 (100GE)'],
  ['100gbase-lr4', '100GBASE-LR4 (100GE)'],
  ['100gbase-sr1', '100GBASE-SR1 (100GE)'],
  ['100gbase-sr1.2', '100GBASE-SR1.2 (100GE BiDi)'],
  ['100gbase-sr2', '100GBASE-SR2 (100GE)'],
  ['100gbase-sr4', '100GBASE-SR4 (100GE)'],
  ['100gbase-sr10', '100GBASE-SR10 (100GE)'],
  ['100gbase-zr', '100GBASE-ZR (100GE)'],
  // 200 Gbps Ethernet
  ['200gbase-cr2', '200GBASE-CR2 (200GE)'],
  ['200gbase-cr4', '200GBASE-CR4 (200GE)'],
  ['200gbase-dr4', '200GBASE-DR4 (200GE)'],
  ['200gbase-er4', '200GBASE-ER4 (200GE)'],
  ['200gbase-fr4', '200GBASE-FR4 (200GE)'],
  ['200gbase-lr4', '200GBASE-LR4 (200GE)'],
  ['200gbase-sr2', '200GBASE-SR2 (200GE)'],
  ['200gbase-sr4', '200GBASE-SR4 (200GE)'],
  ['200gbase-vr2', '200GBASE-VR2 (200GE)'],
  // 400 Gbps Ethernet
  ['400gbase-cr4', '400GBASE-CR4 (400GE)'],
  ['400gbase-dr4', '400GBASE-DR4 (400GE)'],
  ['400gbase-er8', '400GBASE-ER8 (400GE)'],
  ['400gbase-fr4', '400GBASE-FR4 (400GE)'],
  ['400gbase-fr8', '400GBASE-FR8 (400GE)'],
  ['400gbase-lr4', '400GBASE-LR4 (400GE)'],
  ['400gbase-lr8', '400GBASE-LR8 (400GE)'],
  ['400gbase-sr4', '400GBASE-SR4 (400GE)'],
  ['400gbase-sr4_2', '400GBASE-SR4.2 (400GE BiDi)'],
  ['400gbase-sr8', '400GBASE-SR8 (400GE)'],
  ['400gbase-sr16', '400GBASE-SR16 (400GE)'],
  ['400gbase-vr4', '400GBASE-VR4 (400GE)'],
  ['400gbase-zr', '400GBASE-ZR (400GE)'],
  // 800 Gbps Ethernet
  ['800gbase-cr8', '800GBASE-CR8 (800GE)'],
  ['800gbase-dr8', '800GBASE-DR8 (800GE)'],
  ['800gbase-sr8', '800GBASE-SR8 (800GE)'],
  ['800gbase-vr8', '800GBASE-VR8 (800GE)'],
  // Pluggable transceivers
  ['100base-x-sfp', 'SFP (100ME)'],
  ['1000base-x-gbic', 'GBIC (1GE)'],
  ['1000base-x-sfp', 'SFP (1GE)'],
  ['10gbase-x-sfpp', 'SFP+ (10GE)'],
  ['10gbase-x-xenpak', 'XENPAK (10GE)'],
  ['10gbase-x-xfp', 'XFP (10GE)'],
  ['10gbase-x-x2', 'X2 (10GE)'],
  ['25gbase-x-sfp28', 'SFP28 (25GE)'],
  ['40gbase-x-qsfpp', 'QSFP+ (40GE)'],
  ['50gbase-x-sfp28', 'QSFP28 (50GE)'],
  ['50gbase-x-sfp56', 'SFP56 (50GE)'],
  ['100gbase-x-cfp', 'CFP (100GE)'],
  ['100gbase-x-cfp2', 'CFP2 (100GE)'],
  ['100gbase-x-cfp4', 'CFP4 (100GE)'],
  ['100gbase-x-cxp', 'CXP (100GE)'],
  ['100gbase-x-cpak', 'Cisco CPAK (100GE)'],
  ['100gbase-x-dsfp', 'DSFP (100GE)'],
  ['100gbase-x-qsfp28', 'QSFP28 (100GE)'],
  ['100gbase-x-qsfpdd', 'QSFP-DD (100GE)'],
  ['100gbase-x-sfpdd', 'SFP-DD (100GE)'],
  ['200gbase-x-cfp2', 'CFP2 (200GE)'],
  ['200gbase-x-qsfp56', 'QSFP56 (200GE)'],
  ['200gbase-x-qsfpdd', 'QSFP-DD (200GE)'],
  ['400gbase-x-qsfp112', 'QSFP112 (400GE)'],
  ['400gbase-x-qsfpdd', 'QSFP-DD (400GE)'],
  ['400gbase-x-cdfp', 'CDFP (400GE)'],
  ['400gbase-x-cfp2', 'CFP2 (400GE)'],
  ['400gbase-x-cfp8', 'CPF8 (400GE)'],
  ['400gbase-x-osfp', 'OSFP (400GE)'],
  ['400gbase-x-osfp-rhs', 'OSFP-RHS (400GE)'],
  ['800gbase-x-osfp', 'OSFP (800GE)'],
  ['800gbase-x-qsfpdd', 'QSFP-DD (800GE)'],
  // Backplane Ethernet
  ['1000base-kx', '1000BASE-KX (1GE)'],
  ['2.5gbase-kx', '2.5GBASE-KX (2.5GE)'],
  ['5gbase-kr', '5GBASE-KR (5GE)'],
  ['10gbase-kr', '10GBASE-KR (10GE)'],
  ['10gbase-kx4', '10GBASE-KX4 (10GE)'],
  ['25gbase-kr', '25GBASE-KR (25GE)'],
  ['40gbase-kr4', '40GBASE-KR4 (40GE)'],
  ['50gbase-kr', '50GBASE-KR (50GE)'],
  ['100gbase-kp4', '100GBASE-KP4 (100GE)'],
  ['100gbase-kr2', '100GBASE-KR2 (100GE)'],
  ['100gbase-kr4', '100GBASE-KR4 (100GE)'],
  // Wireless
  ['ieee802.11a', 'IEEE 802.11a'],
  ['ieee802.11g', 'IEEE 802.11b/g'],
  ['ieee802.11n', 'IEEE 802.11n (Wi-Fi 4)'],
  ['ieee802.11ac', 'IEEE 802.11ac (Wi-Fi 5)'],
  ['ieee802.11ad', 'IEEE 802.11ad (WiGig)'],
  ['ieee802.11ax', 'IEEE 802.11ax (Wi-Fi 6)'],
  ['ieee802.11ay', 'IEEE 802.11ay (WiGig)'],
  ['ieee802.11be', 'IEEE 802.11be (Wi-Fi 7)'],
  ['ieee802.15.1', 'IEEE 802.15.1 (Bluetooth)'],
  ['ieee802.15.4', 'IEEE 802.15.4 (LR-WPAN)'],
  ['other-wireless', 'Other (Wireless)'],
  // Cellular
  ['gsm', 'GSM'],
  ['cdma', 'CDMA'],
  ['lte', 'LTE'],
  ['4g', '4G'],
  ['5g', '5G'],
  // SONET
  ['sonet-oc3', 'OC-3/STM-1'],
  ['sonet-oc12', 'OC-12/STM-4'],
  ['sonet-oc48', 'OC-48/STM-16'],
  ['sonet-oc192', 'OC-192/STM-64'],
  ['sonet-oc768', 'OC-768/STM-256'],
  ['sonet-oc1920', 'OC-1920/STM-640'],
  ['sonet-oc3840', 'OC-3840/STM-1234'],
  // FibreChannel
  ['1gfc-sfp', 'SFP (1GFC)'],
  ['2gfc-sfp', 'SFP (2GFC)'],
  ['4gfc-sfp', 'SFP (4GFC)'],
  ['8gfc-sfpp', 'SFP+ (8GFC)'],
  ['16gfc-sfpp', 'SFP+ (16GFC)'],
  ['32gfc-sfp28', 'SFP28 (32GFC)'],
  ['32gfc-sfpp', 'SFP+ (32GFC)'],
  ['64gfc-qsfpp', 'QSFP+ (64GFC)'],
  ['64gfc-sfpdd', 'SFP-DD (64GFC)'],
  ['64gfc-sfpp', 'SFP+ (64GFC)'],
  ['128gfc-qsfp28', 'QSFP28 (128GFC)'],
  // InfiniBand
  ['infiniband-sdr', 'SDR (2 Gbps)'],
  ['infiniband-ddr', 'DDR (4 Gbps)'],
  ['infiniband-qdr', 'QDR (8 Gbps)'],
  ['infiniband-fdr10', 'FDR10 (10 Gbps)'],
  ['infiniband-fdr', 'FDR (13.5 Gbps)'],
  ['infiniband-edr', 'EDR (25 Gbps)'],
  ['infiniband-hdr', 'HDR (50 Gbps)'],
  ['infiniband-ndr', 'NDR (100 Gbps)'],
  ['infiniband-xdr', 'XDR (250 Gbps)'],
  // Serial
  ['t1', 'T1 (1.544 Mbps)'],
  ['e1', 'E1 (2.048 Mbps)'],
  ['t3', 'T3 (45 Mbps)'],
  ['e3', 'E3 (34 Mbps)'],
  // ATM
  ['xdsl', 'xDSL'],
  // Coaxial
  ['docsis', 'DOCSIS'],
  ['moca', 'MoCA'],
  // PON
  ['bpon', 'BPON (622 Mbps / 155 Mbps)'],
  ['epon', 'EPON (1 Gbps)'],
  ['10g-epon', '10G-EPON (10 Gbps)'],
  ['gpon', 'GPON (2.5 Gbps / 1.25 Gbps)'],
  ['xg-pon', 'XG-PON (10 Gbps / 2.5 Gbps)'],
  ['xgs-pon', 'XGS-PON (10 Gbps)'],
  ['ng-pon2', 'NG-PON2 (TWDM-PON) (4x10 Gbps)'],
  ['25g-pon', '25G-PON (25 Gbps)'],
  ['50g-pon', '50G-PON (50 Gbps)'],
  // Stacking
  ['cisco-stackwise', 'Cisco StackWise'],
  ['cisco-stackwise-plus', 'Cisco StackWise Plus'],
  ['cisco-flexstack', 'Cisco FlexStack'],
  ['cisco-flexstack-plus', 'Cisco FlexStack Plus'],
  ['cisco-stackwise-80', 'Cisco StackWise-80'],
  ['cisco-stackwise-160', 'Cisco StackWise-160'],
  ['cisco-stackwise-320', 'Cisco StackWise-320'],
  ['cisco-stackwise-480', 'Cisco StackWise-480'],
  ['cisco-stackwise-1t', 'Cisco StackWise-1T'],
  ['juniper-vcp', 'Juniper VCP'],
  ['extreme-summitstack', 'Extreme SummitStack'],
  ['extreme-summitstack-128', 'Extreme SummitStack-128'],
  ['extreme-summitstack-256', 'Extreme SummitStack-256'],
  ['extreme-summitstack-512', 'Extreme SummitStack-512'],
  // Other
  ['other', 'Other'],
]);

export const InterfaceDuplex = defineChoices([
  ['half', 'Half'],
  ['full', 'Full'],
  ['auto', 'Auto'],
]);

export const InterfaceMode = defineChoices([
  ['access', 'Access'],
  ['tagged', 'Tagged'],
  ['tagged-all', 'Tagged (All)'],
  ['q-in-q', 'Q-in-Q (802.1ad)'],
]);

export const InterfacePoEMode = defineChoices([
  ['pd', 'PD'],
  ['pse', 'PSE'],
]);

export const InterfacePoEType = defineChoices([
  // IEEE Standard
  ['type1-ieee802.3af', '802.3af (Type 1)'],
  ['type2-ieee802.3at', '802.3at (Type 2)'],
  ['type3-ieee802.3bt', '802.3bt (Type 3)'],
  ['type4-ieee802.3bt', '802.3bt (Type 4)'],
  // Passive
  ['passive-24v-2pair', 'Passive 24V (2-pair)'],
  ['passive-24v-4pair', 'Passive 24V (4-pair)'],
  ['passive-48v-2pair', 'Passive 48V (2-pair)'],
  ['passive-48v-4pair', 'Passive 48V (4-pair)'],
]);

export const PortType = defineChoices([
  // Copper
  ['8p8c', '8P8C'],
  ['8p6c', '8P6C'],
  ['8p4c', '8P4C'],
  ['8p2c', '8P2C'],
  ['6p6c', '6P6C'],
  ['6p4c', '6P4C'],
  ['6p2c', '6P2C'],
  ['4p4c', '4P4C'],
  ['4p2c', '4P2C'],
  ['gg45', 'GG45'],
  ['tera-4p', 'TERA 4P'],
  ['tera-2p', 'TERA 2P'],
  ['tera-1p', 'TERA 1P'],
  ['110-punch', '110 Punch'],
  ['bnc', 'BNC'],
  ['f', 'F Connector'],
  ['n', 'N Connector'],
  ['mrj21', 'MRJ21'],
  // Fiber Optic
  ['fc', 'FC'],
  ['fc-pc', 'FC/PC'],
  ['fc-upc', 'FC/UPC'],
  ['fc-apc', 'FC/APC'],
  ['lc', 'LC'],
  ['lc-pc', 'LC/PC'],
  ['lc-upc', 'LC/UPC'],
  ['lc-apc', 'LC/APC'],
  ['lsh', 'LSH'],
  ['lsh-pc', 'LSH/PC'],
  ['lsh-upc', 'LSH/UPC'],
  ['lsh-apc', 'LSH/APC'],
  ['lx5', 'LX.5'],
  ['lx5-pc', 'LX.5/PC'],
  ['lx5-upc', 'LX.5/UPC'],
  ['lx5-apc', 'LX.5/APC'],
  ['mpo', 'MPO'],
  ['mtrj', 'MTRJ'],
  ['sc', 'SC'],
  ['sc-pc', 'SC/PC'],
  ['sc-upc', 'SC/UPC'],
  ['sc-apc', 'SC/APC'],
  ['st', 'ST'],
  ['cs', 'CS'],
  ['sn', 'SN'],
  ['sma-905', 'SMA 905'],
  ['sma-906', 'SMA 906'],
  ['urm-p2', 'URM-P2'],
  ['urm-p4', 'URM-P4'],
  ['urm-p8', 'URM-P8'],
  ['splice', 'Splice'],
  // USB
  ['usb-a', 'USB Type A'],
  ['usb-b', 'USB Type B'],
  ['usb-c', 'USB Type C'],
  ['usb-mini-a', 'USB Mini A'],
  ['usb-mini-b', 'USB Mini B'],
  ['usb-micro-a', 'USB Micro A'],
  ['usb-micro-b', 'USB Micro B'],
  ['usb-micro-ab', 'USB Micro AB'],
  // Other
  ['other', 'Other'],
]);

export const VirtualDeviceContextStatus = defineChoices([
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['offline', 'Offline'],
]);

export const InventoryItemStatus = defineChoices([
  ['offline', 'Offline'],
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['staged', 'Staged'],
  ['failed', 'Failed'],
  ['decommissioning', 'Decommissioning'],
]);

export const WeightUnit = defineChoices([
  ['kg', 'Kilograms'],
  ['g', 'Grams'],
  ['lb', 'Pounds'],
  ['oz', 'Ounces'],
]);
